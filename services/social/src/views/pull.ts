/**
 * GET /outbox for other servers (behaviour-notes §3.16, fixed by decisions.md §6). Three forms:
 *
 * - batch pull (`from` and `to`): signed by the requesting server, whose users the `to` ids
 *   must be. Answers the public posts of the `from` authors, plus their posts addressed to
 *   their circles that hold a `to` user (only for those users: `recipients`), and, with `since`,
 *   the ids of such posts deleted since (`tombstones`). The prior implementation answered
 *   circle posts to anyone who named a member; here the signer's domain bounds what it sees.
 * - `from` only: the public posts of those authors, for anyone.
 * - neither: the public posts of this server's users, newest first.
 *
 * Only this server's own posts are answered (never copies of other servers' posts). Every form
 * pages newest first by (publishedAt, id): a full page carries `next`, a cursor the client hands
 * back as `before` (an ISO time is accepted there too; lists/cursor.ts).
 */
import type { Viewer } from '@agora/common/audience';
import { encodeCursor, parseBefore, type Place, type PostDoc } from '@agora/common/db';
import { BadRequest, NotAuthorized, Unauthorized } from '@agora/common/errors';
import { domainOf } from '@agora/common/federation';
import type { SocialContext } from '../context';
import { presentPost } from './posts';
import { hiddenAuthors } from '../access/suspended';
import { counted, suspendedShare } from '../access/suspended-counts';

export interface PullQuery {
  from: string[];
  to: string[];
  since?: Date;
  /** Where the page starts: `next` of the page before (a cursor), or an ISO time. */
  before?: Place;
  limit: number;
}

function ids(raw: unknown, field: string): string[] {
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  if (list.length > 100) throw new BadRequest(`${field}: at most 100 ids`);
  for (const v of list)
    if (typeof v !== 'string' || !v || v.length > 300) throw new BadRequest(`${field}: ids are strings`);
  return [...new Set(list as string[])];
}

export function parsePull(query: Record<string, unknown>): PullQuery {
  const since = typeof query.since === 'string' ? new Date(query.since) : undefined;
  if (query.since !== undefined && (!since || Number.isNaN(since.getTime())))
    throw new BadRequest('since must be a valid ISO date string');
  const raw = typeof query.limit === 'string' ? Number.parseInt(query.limit, 10) : 20;
  const limit = Math.min(100, Math.max(1, Number.isFinite(raw) ? raw : 20));
  const before = parseBefore(query.before);
  return {
    from: ids(query.from, 'from'),
    to: ids(query.to, 'to'),
    ...(since ? { since } : {}),
    ...(before ? { before } : {}),
    limit,
  };
}

export async function pull(ctx: SocialContext, viewer: Viewer, signer: string | undefined, q: PullQuery) {
  const domain = ctx.config.DOMAIN;
  const authors = q.from.filter((id) => id.endsWith(`@${domain}`));
  // A suspended account's posts are not pulled (ADR 0028); pages stay cut where the store cut
  // them, so `next` is the cursor of the store's page even when some of it is left out.
  // Their replies and reactions leave the pulled posts' counters, as for any other reader here.
  const [hidden, share] = await Promise.all([hiddenAuthors(ctx), suspendedShare(ctx)]);
  const present = (p: PostDoc) => presentPost(counted(share, p) as never, viewer, domain);
  const page = {
    limit: q.limit,
    ...(q.since ? { since: q.since } : {}),
    ...(q.before ? { before: q.before } : {}),
  };

  if (!q.to.length) {
    const posts: PostDoc[] = await ctx.stores.posts.pullFor({
      ...page,
      audiences: ['@public'],
      ...(q.from.length ? { authors } : {}),
    });
    const shown = posts.filter((p) => !hidden.has(p.actorId));
    return { items: shown.map(present), ...nextOf(posts, q.limit) };
  }

  if (!signer) throw new Unauthorized('A batch pull must be signed by the requesting server');
  if (q.to.some((id) => domainOf(id) !== signer))
    throw new NotAuthorized('to: every recipient must be a user of the signing server');
  // The authors' circles holding a `to` user, from the membership index of each `to` user.
  const held = new Set(
    (await Promise.all(q.to.map((id) => ctx.stores.circles.membershipsOf(id)))).flatMap((m) => m.circles),
  );
  const circles = [...(await ctx.stores.circles.liveByIds([...held])).values()].filter(
    (c) => authors.includes(c.actorId) && !c.originDomain,
  );
  const readersOf = new Map(
    circles.map((c) => [c.id, (c.members ?? []).map((m) => m.id).filter((id) => q.to.includes(id))]),
  );
  // What the puller caches of each circle: owner, name, and the revision its readers are as of.
  const described = new Map(
    circles.map((c) => [
      c.id,
      { id: c.id, actorId: c.actorId, name: c.type === 'Circle' ? c.name : '', rev: c.__v ?? 0 },
    ]),
  );
  const audiences = ['@public', ...readersOf.keys()];
  const scope = { authors, audiences };
  const [posts, gone] = await Promise.all([
    ctx.stores.posts.pullFor({ ...scope, ...page }),
    q.since ? ctx.stores.posts.deletedFor(scope, q.since) : [],
  ]);
  const shown = posts.filter((p) => !hidden.has(p.actorId));
  return {
    items: shown.map(present),
    recipients: shown.map((p) => ({
      itemId: p.id,
      to: p.to === '@public' ? q.to : (readersOf.get(p.to ?? '') ?? []),
      ...(described.has(p.to ?? '') ? { circle: described.get(p.to ?? '') } : {}),
    })),
    tombstones: gone,
    ...nextOf(posts, q.limit),
  };
}

/**
 * A full page's `next`: the cursor of its last post (time and id), which a client hands back as
 * `before` for the page after it. None on a short page.
 */
function nextOf(posts: Array<{ id?: string | null; publishedAt?: Date | null }>, limit: number) {
  const last = posts[posts.length - 1];
  if (posts.length < limit || !last?.publishedAt || !last.id) return {};
  return { next: encodeCursor({ at: new Date(last.publishedAt).getTime(), id: last.id }) };
}
