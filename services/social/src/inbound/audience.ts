/**
 * The audience of a post from another server (docs/federation.md, "Audiences"): public, or one of
 * the sending server's circles naming recipients on this server. Such a post is kept only when the
 * delivery names someone here (its users, or the server itself `@<domain>`; names of other servers'
 * actors are ignored). The circle is cached here (`originDomain` set) holding the members the
 * delivery states, as of the origin's revision (CirclesStore.syncCached), so the normal
 * audience checks (canSee, visibleFilter) let exactly those users read the post on every read path,
 * and every local user when the circle holds this server. Its fan-out reaches only the timelines of
 * owners who may read it.
 */
import { parseId } from '@agora/common/db';
import type { SocialContext } from '../context';
import type { Inbound, Outcome } from './apply';
import { readAddressed } from './audience-shape';
import { belongsTo, isPublic, type Json } from './shape';

export interface KeptAudience {
  to: string;
  /** The timelines it goes to, when not every circle holding its author may read it. */
  circles?: string[];
}

/** Whether an id names an actor of this server: one of its users, or the server. */
export function isLocalActor(ctx: SocialContext, id: string): boolean {
  const domain = ctx.config.DOMAIN;
  if (id === `@${domain}`) return true;
  const p = parseId(id);
  return p.type === 'User' && p.domain === domain;
}

/**
 * The actors of this server among ids another server names: this server itself, and users who
 * exist (a name nobody holds yet must not give whoever registers it later a membership).
 */
export async function localActors(ctx: SocialContext, ids: readonly string[]): Promise<string[]> {
  const mine = [...new Set(ids.filter((id) => isLocalActor(ctx, id)))];
  const users = await ctx.stores.users.liveByIds(mine.filter((id) => id !== `@${ctx.config.DOMAIN}`));
  return mine.filter((id) => {
    if (id === `@${ctx.config.DOMAIN}`) return true;
    const user = users.get(id);
    return !!user && user.active !== false;
  });
}

const ignored = (reason: string): Outcome => ({ status: 'ignored', reason });
const rejected = (reason: string): Outcome => ({ status: 'rejected', reason });

export async function inboundAudience(
  ctx: SocialContext,
  a: Inbound,
  object: Json,
): Promise<KeptAudience | Outcome> {
  if (isPublic(a.activity, object)) return { to: '@public' };
  const { circle, recipients, scope } = readAddressed(a.activity, object);
  if (!circle) return ignored('only public posts and posts to circles of the sending server are kept');
  if (!belongsTo(circle.id, a.signerDomain)) return rejected("to: a circle must be on the signer's domain");
  const owner = circle.actorId ?? a.actorId;
  if (!belongsTo(owner, a.signerDomain)) return rejected("circle.actorId: must be on the signer's domain");
  if (circle.rev === undefined) return rejected('circle.rev: the revision of its members is required');
  const named = await localActors(ctx, recipients);
  if (!named.length) return ignored('names no recipient on this server');
  const synced = await ctx.stores.circles.syncCached(
    { id: circle.id, actorId: owner, name: circle.name, originDomain: a.signerDomain },
    { rev: circle.rev, present: named, scope: scope?.filter((id) => isLocalActor(ctx, id)) ?? 'all' },
  );
  if (!synced) return ignored('the circle is deleted here');
  return { to: circle.id, circles: await readableTimelines(ctx, a.actorId, synced.circle.members) };
}

/**
 * The circles of this server holding the author whose owner is among the readers (every one when
 * the circle holds this server).
 */
async function readableTimelines(
  ctx: SocialContext,
  authorId: string,
  readers: Array<{ id: string }>,
): Promise<string[]> {
  const ids = new Set(readers.map((m) => m.id));
  const everyone = ids.has(`@${ctx.config.DOMAIN}`);
  const local = `@${ctx.config.DOMAIN}`;
  const held = (await ctx.stores.circles.membershipsOf(authorId)).circles.filter((id) => id.endsWith(local));
  const live = await ctx.stores.circles.liveByIds(held);
  return [...live.values()].filter((c) => everyone || ids.has(c.actorId)).map((c) => c.id);
}
