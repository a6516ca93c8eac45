/**
 * An activity of the spec's wire (ids `@alice@domain`, `post:…@domain`, `@public`) as ActivityPub:
 * every id a URL (ids.ts), `actor` the acting actor's URL, `@public` the Public collection, the
 * fields only Agora peers read dropped. Ids with no URL (another server's circle, a remote
 * object never met) are left out of `to`/`cc`; an activity whose actor or object has none is not
 * sent (undefined).
 */
import type { FederationContext } from '../context';
import { idMap, type IdMap } from './ids';
import { reactionToAp, tombstone, withTags } from './outbound-content';
import { shareToAp } from './outbound-share';
import { AP_CONTENT_CONTEXT, AP_PUBLIC } from './vocab';
import { type Json, isObject } from './json';

const AGORA_ONLY = [
  'actorId',
  'recipients',
  'circle',
  'source',
  'scope',
  'target',
  'group',
  'canReply',
  'canReact',
];
const isUrl = (v: string) => /^https?:\/\//.test(v);

async function ref(ids: IdMap, v: unknown): Promise<string | undefined> {
  if (typeof v !== 'string') return undefined;
  if (v === '@public' || v === AP_PUBLIC) return AP_PUBLIC;
  return (await ids.urlOf(v)) ?? (isUrl(v) ? v : undefined);
}

async function audience(ids: IdMap, v: unknown): Promise<string[] | undefined> {
  if (v === undefined) return undefined;
  const list = Array.isArray(v) ? v : [v];
  const out = await Promise.all(list.map((x) => ref(ids, x)));
  return out.filter((x): x is string => !!x);
}

async function object(ids: IdMap, o: Json, actorUrl: string): Promise<Json | undefined> {
  const out: Json = { ...o };
  for (const k of AGORA_ONLY) delete out[k];
  const id = await ref(ids, o.id);
  if (!id) return undefined;
  out.id = id;
  if (o.attributedTo !== undefined) out.attributedTo = (await ref(ids, o.attributedTo)) ?? actorUrl;
  if (o.inReplyTo !== undefined) out.inReplyTo = await ref(ids, o.inReplyTo);
  for (const k of ['to', 'cc'] as const) if (o[k] !== undefined) out[k] = await audience(ids, o[k]);
  if (typeof o.actor === 'string' || isObject(o.actor)) out.actor = actorUrl;
  if (o.object !== undefined) {
    const inner = isObject(o.object) ? await object(ids, o.object, actorUrl) : await ref(ids, o.object);
    if (!inner) return undefined;
    out.object = inner;
  }
  return out;
}

/** Activities of the spec's own protocol that have no ActivityPub meaning (circles, groups, relays). */
function specOnly(activity: Json): string | undefined {
  const target = isObject(activity.target) ? activity.target : undefined;
  if (target?.type === 'Circle' || target?.group !== undefined || activity.group !== undefined)
    return "circles and groups travel on the spec's wire only";
  if (typeof activity.object === 'string' && activity.object.startsWith('circle:'))
    return "circles travel on the spec's wire only";
  if (['Announce', 'Flag', 'Join', 'Leave'].includes(String(activity.type)))
    return `${String(activity.type)} is not sent as ActivityPub yet`;
  return undefined;
}

export type Mapped = { activity: Json } | { unsendable: string };

export async function toActivityPub(ctx: FederationContext, activity: Json): Promise<Mapped> {
  const why = specOnly(activity);
  if (why) return { unsendable: why };
  const ids = idMap(ctx.config, ctx.stores.activityPub);
  const actorId = typeof activity.actorId === 'string' ? activity.actorId : undefined;
  const actorUrl = actorId && (await ids.urlOf(actorId));
  if (!actorUrl) return { unsendable: 'its actor has no ActivityPub URL' };
  const inner = isObject(activity.object) ? activity.object : undefined;
  if (activity.type === 'React' || (activity.type === 'Undo' && inner?.type === 'React')) {
    const reaction = await reactionToAp(ctx, ids, activity, actorUrl);
    return reaction ? { activity: reaction } : { unsendable: 'the reacted-to object has no ActivityPub URL' };
  }
  // A local user's share of a post: an Announce of the original, or its Undo (ADR 0024).
  const share = await shareToAp(ctx, ids, activity, actorUrl);
  if (share) return { activity: share };
  const mapped = await object(ids, { ...activity, actor: actorUrl }, actorUrl);
  if (!mapped) return { unsendable: 'its object has no ActivityPub URL' };
  const rest = { ...mapped };
  if (activity.type === 'Delete' && typeof rest.object === 'string' && rest.object !== actorUrl)
    rest.object = tombstone(rest.object);
  if (inner && isObject(rest.object) && ['Note', 'Article'].includes(String(inner.type)))
    rest.object = await withTags(ctx, ids, inner, rest.object);
  delete rest['@context'];
  // A circle post names its readers on that server (`recipients`): they are its audience there,
  // never the Public collection.
  if (Array.isArray(activity.recipients)) {
    const to = (await audience(ids, activity.recipients))?.filter((u) => u !== AP_PUBLIC) ?? [];
    if (!to.length) return { unsendable: 'none of its recipients has an ActivityPub URL' };
    rest.to = to;
    delete rest.cc;
    if (isObject(rest.object)) rest.object = { ...rest.object, to, cc: undefined };
  }
  const isPublic = Array.isArray(rest.to) && rest.to.includes(AP_PUBLIC);
  return {
    activity: {
      '@context': AP_CONTENT_CONTEXT,
      ...rest,
      actor: actorUrl,
      ...(isPublic && rest.cc === undefined ? { cc: [`${actorUrl}/followers`] } : {}),
    },
  };
}
