/**
 * The thread above an inbound public reply whose parent is not held here (docs/federation.md,
 * "ActivityPub"; ADR 0027). The parent is fetched from its URL, then its own parent, until a post
 * or reply held here or the thread's root is reached: at most MAX_ANCESTORS documents, all within
 * WALK_BUDGET_MS. Each document is read as the inbound Announce reads an original: fetched by a
 * signed GET, it must carry the URL it was fetched at as its `id`, be a public Note (Article,
 * Page, Question) and be attributed to an actor on that URL's server. Each must also be on the
 * reply's own server: only a thread's server is heard about its thread (thread-trust.ts), so a
 * parent elsewhere could not be joined anyway and is not fetched. The social service applies the
 * documents, root first, as that server's posts and replies before the reply; when the walk
 * fails, the reason travels with the reply, which is dropped as before and recorded with it.
 */
import type { RemoteActorRecord } from '@agora/common/db';
import { domainOf } from '@agora/common/federation';
import type { FederationContext } from '../context';
import { localIdOf, type IdMap } from './ids';
import { fetchDocument, resolveActor } from './resolve';
import { type Json, idOf, POST_TYPES, addressesPublic } from './json';

export const MAX_ANCESTORS = 3;
export const WALK_BUDGET_MS = 10_000;

export interface Ancestor {
  doc: Json;
  author: RemoteActorRecord;
}

/** The documents above the reply, root first; or why they could not be had. */
export type Ancestry = { ancestors: Ancestor[] } | { missing: string };

/** Whether the object at `url` is held here: a live post or reply of this API under its id. */
async function isHeld(ctx: FederationContext, ids: IdMap, url: string): Promise<boolean> {
  const id = await ids.idOf(url);
  if (!id) return false;
  if (id.startsWith('post:')) return !!(await ctx.stores.posts.liveById(id));
  if (id.startsWith('reply:')) return !!(await ctx.stores.replies.liveById(id));
  return false;
}

/** Resolves with undefined when `ms` pass first. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, ms));
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** One document of the thread, read as an original is; a string says why it is not usable. */
async function fetchAncestor(
  ctx: FederationContext,
  url: string,
  deadline: number,
): Promise<Ancestor | string> {
  const doc = await within(
    fetchDocument(ctx, url).catch(() => undefined),
    deadline - Date.now(),
  );
  if (!doc || doc.id !== url || !POST_TYPES.has(String(doc.type)))
    return `the parent ${url} could not be fetched as a post at its URL`;
  if (!addressesPublic(doc)) return `the parent ${url} is not public`;
  const authorUrl = idOf(doc.attributedTo);
  if (!authorUrl || domainOf(authorUrl) !== domainOf(url))
    return `the parent ${url} is not attributed to an actor of its server`;
  const author = await within(resolveActor(ctx, authorUrl), deadline - Date.now());
  return author ? { doc, author } : `the author of the parent ${url} could not be fetched`;
}

/**
 * The thread above a public reply (`note`, by an actor of `server`): undefined when its parent is
 * held here or is one of this server's URLs (nothing to fetch), else the documents, root first.
 */
export async function ancestryOf(
  ctx: FederationContext,
  ids: IdMap,
  note: Json,
  server: string,
): Promise<Ancestry | undefined> {
  const parent = idOf(note.inReplyTo);
  if (!parent || localIdOf(ctx.config, parent) || (await isHeld(ctx, ids, parent))) return undefined;
  const deadline = Date.now() + WALK_BUDGET_MS;
  const ancestors: Ancestor[] = [];
  for (let url: string | undefined = parent; url && !(await isHeld(ctx, ids, url));) {
    if (localIdOf(ctx.config, url)) return { missing: `${url} is not held here` };
    if (domainOf(url) !== server)
      return {
        missing: `the parent ${url} is on another server than the reply's: only a thread's server is heard about it`,
      };
    if (ancestors.length === MAX_ANCESTORS)
      return { missing: `the thread above the reply holds more than ${MAX_ANCESTORS} posts not held here` };
    if (Date.now() >= deadline) return { missing: 'fetching the thread above the reply took too long' };
    const found = await fetchAncestor(ctx, url, deadline);
    if (typeof found === 'string') return { missing: found };
    ancestors.unshift(found);
    url = idOf(found.doc.inReplyTo);
    // A loop (a document answering itself or a descendant) ends the walk.
    if (url && ancestors.some((a) => a.doc.id === url))
      return { missing: 'the thread above the reply loops' };
  }
  return { ancestors };
}
