/**
 * Who receives what happens to a local object, as domain logic (no wire format): which remote
 * servers, and whom each delivery names (users of that server, or the server itself). Posts ask
 * here, and so can anything addressed like a post (replies and reactions follow their post), so a
 * server none of whose users may see something never receives it (docs/federation.md, "Audiences").
 *
 * - `@public`: the author's remote followers, one delivery per inbox, naming the followers there.
 *   Members of the author's circles who do not follow them are not sent public posts: on their
 *   server a copy would reach no timeline (timelines are the circles of whoever follows), and they
 *   read them by lookup as anyone does.
 * - a circle of this server: its remote members, one delivery per server (its shared inbox),
 *   naming that server's users in the circle, and the server itself (`@<domain>`) when the circle
 *   holds it. The circle goes along (id, owner, name, revision) so the receiver can cache who of
 *   its users it holds.
 * - `@<this domain>`, the author alone (`''` or their own id), a group (not federated yet), a
 *   circle of another server (not addressable here): no one.
 */
import { parseId, type CircleRecord } from '@agora/common/db';
import { sharedInboxOf } from '@agora/common/federation';
import type { FederationContext } from '../context';

/** One delivery: to this inbox of this server, naming these of its actors. */
export interface DeliveryTarget {
  domain: string;
  inbox: string;
  recipients: string[];
}

/** A circle as a delivery describes it to the servers of its members. */
export interface AddressedCircle {
  id: string;
  actorId: string;
  /** Only user-made circles are named: system circles (Following, Blocked, …) are not told apart. */
  name: string;
  /** The revision of its members (it moves with every change), so receivers apply the newest. */
  rev: number;
}

export interface Audience {
  /** The audience as stored (`@public`, a circle id, …). */
  to: string;
  circle?: AddressedCircle;
  targets: DeliveryTarget[];
}

/** The remote servers among member ids (users and servers), with the ids of each. */
export function membersByDomain(ownDomain: string, memberIds: Iterable<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const id of memberIds) {
    const p = parseId(id);
    if ((p.type !== 'User' && p.type !== 'Server') || !p.domain || p.domain === ownDomain) continue;
    const list = out.get(p.domain) ?? [];
    if (!list.includes(id)) list.push(id);
    out.set(p.domain, list);
  }
  return out;
}

/** The author's remote followers, one delivery per inbox. */
export async function followerTargets(ctx: FederationContext, authorId: string): Promise<DeliveryTarget[]> {
  const byInbox = new Map<string, DeliveryTarget>();
  for (const f of await ctx.stores.followers.ofUser(authorId)) {
    const t = byInbox.get(f.inbox) ?? { domain: f.domain, inbox: f.inbox, recipients: [] };
    t.recipients.push(f.actorId);
    byInbox.set(f.inbox, t);
  }
  return [...byInbox.values()];
}

/** One delivery per remote server among a circle's members, to its shared inbox. */
export function circleTargets(
  ctx: FederationContext,
  circle: Pick<CircleRecord, 'members'>,
): DeliveryTarget[] {
  const ids = (circle.members ?? []).map((m) => m.id);
  return [...membersByDomain(ctx.config.DOMAIN, ids)].map(([domain, recipients]) => ({
    domain,
    inbox: sharedInboxOf(ctx.config, domain),
    recipients,
  }));
}

export function describeCircle(circle: CircleRecord & { __v?: number }): AddressedCircle {
  return {
    id: circle.id,
    actorId: circle.actorId,
    name: circle.type === 'Circle' ? circle.name : '',
    rev: circle.__v ?? 0,
  };
}

/** A live circle of this server (not another server's circle cached here). */
export async function localCircle(ctx: FederationContext, id: string) {
  const circle = await ctx.stores.circles.liveById(id);
  return circle && !circle.originDomain && id.endsWith(`@${ctx.config.DOMAIN}`) ? circle : null;
}

/** Which servers receive something addressed to `to` by `actorId`, and whom each delivery names. */
export async function deliveryTargets(
  ctx: FederationContext,
  addressed: { actorId: string; to?: string | null },
): Promise<Audience> {
  const to = addressed.to ?? '';
  if (to === '@public') return { to, targets: await followerTargets(ctx, addressed.actorId) };
  if (to.startsWith('circle:')) {
    const circle = await localCircle(ctx, to);
    if (!circle) return { to, targets: [] };
    return { to, circle: describeCircle(circle), targets: circleTargets(ctx, circle) };
  }
  return { to, targets: [] };
}

/**
 * Every server that holds something of a local actor: its followers' inboxes, the servers of the
 * members of the circles it owns (`deleted` too when the account is gone: its circles went with
 * it), and the servers whose circles hold it (cached here when they told us). An actor Update or
 * Delete goes there, one delivery per inbox.
 */
export async function actorPeers(
  ctx: FederationContext,
  actorId: string,
  opts: { deleted?: boolean } = {},
): Promise<DeliveryTarget[]> {
  const own = ctx.config.DOMAIN;
  const out = await followerTargets(ctx, actorId);
  const covered = new Set(out.map((t) => t.domain));
  const owned = opts.deleted
    ? await ctx.stores.circles.everOwnedBy(actorId)
    : [...(await ctx.stores.circles.liveByIds(await ctx.stores.circles.liveIdsOwnedBy(actorId))).values()];
  const memberIds = owned
    .filter((c) => c.type === 'Circle')
    .flatMap((c) => (c.members ?? []).map((m) => m.id));
  const holding = (await ctx.stores.circles.membershipsOf(actorId)).circles.filter(
    (id) => !id.endsWith(`@${own}`),
  );
  const domains = new Set([
    ...membersByDomain(own, memberIds).keys(),
    ...holding.map((id) => parseId(id).domain).filter((d): d is string => !!d && d !== own),
  ]);
  for (const domain of domains)
    if (!covered.has(domain)) out.push({ domain, inbox: sharedInboxOf(ctx.config, domain), recipients: [] });
  return out;
}
