import { Router } from '@agora/common/http';
import type { Request, Response, NextFunction } from 'express';
import type { FederationContext } from '../../context';
import { isSuspended, serverActorDocument, userActorDocument } from '../../activitypub/documents';
import {
  followersPage,
  followingPage,
  objectDocument,
  outboxPage,
  parseCursor,
} from '../../activitypub/collections';
import { ACTIVITY_JSON, LD_JSON } from '../../activitypub/vocab';

type Json = Record<string, unknown>;

/** Answers an ActivityPub document in the media type asked for (activity+json unless ld+json only). */
function send(req: Request, res: Response, doc: Json | undefined): void {
  if (!doc) {
    res.status(404).json({ error: 'Not found' });
    return;
  }
  const accept = req.get('accept') ?? '';
  const type =
    accept.includes('application/ld+json') && !accept.includes(ACTIVITY_JSON) ? LD_JSON : ACTIVITY_JSON;
  res.setHeader('Vary', 'Accept');
  res.status(200).type(type).send(JSON.stringify(doc));
}

const page = (req: Request): number | undefined => {
  const raw = req.query.page;
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= 10_000 ? n : 1;
};

/**
 * GET /ap/…: this server's ActivityPub documents (docs/federation.md, "ActivityPub"): the
 * server actor, each user as a Person with its own key, their outbox, followers and following
 * as paged OrderedCollections, and public posts as Notes. Inboxes are the spec's own routes.
 */
export default function activityPubRoutes(ctx: FederationContext): Router {
  const r = Router();
  const answer =
    (make: (req: Request) => Promise<Json | undefined>) =>
    (req: Request, res: Response, next: NextFunction) => {
      make(req)
        .then((doc) => send(req, res, doc))
        .catch(next);
    };
  const userOf = async (req: Request) => {
    const name = String(req.params.name ?? '');
    if (!/^[a-z0-9_]{1,64}$/i.test(name)) return undefined;
    return (
      (await ctx.stores.users.findActiveById(`@${name.toLowerCase()}@${ctx.config.DOMAIN}`)) ?? undefined
    );
  };
  r.get(
    '/actor',
    answer(() => serverActorDocument(ctx)),
  );
  // A suspended account's actor stays readable, marked `suspended` (ADR 0028): peers keep it (and
  // can check its key) for the restore. Its outbox and collections are not served meanwhile.
  const actorOf = async (req: Request) => {
    const name = String(req.params.name ?? '');
    if (!/^[a-z0-9_]{1,64}$/i.test(name)) return undefined;
    const user = await ctx.stores.users.findById(`@${name.toLowerCase()}@${ctx.config.DOMAIN}`);
    if (!user) return undefined;
    return (user.active !== false && !user.deletedAt) || isSuspended(user) ? user : undefined;
  };
  r.get(
    '/users/:name',
    answer(async (req) => {
      const user = await actorOf(req);
      return user && userActorDocument(ctx, user);
    }),
  );
  r.get(
    '/users/:name/outbox',
    answer(async (req) => {
      const user = await userOf(req);
      return user && outboxPage(ctx, user, page(req), parseCursor(req.query.before));
    }),
  );
  r.get(
    '/users/:name/followers',
    answer(async (req) => {
      const user = await userOf(req);
      return user && followersPage(ctx, user, page(req));
    }),
  );
  r.get(
    '/users/:name/following',
    answer(async (req) => {
      const user = await userOf(req);
      return user && followingPage(ctx, user, page(req));
    }),
  );
  r.get(
    '/objects/:id',
    answer((req) => objectDocument(ctx, String(req.params.id ?? ''))),
  );
  return r;
}
