/**
 * An activity of the spec's wire (ids `@alice@domain`, `post:…@domain`, `@public`) as ActivityPub:
 * every id a URL (ids.ts), `actor` the acting actor's URL, `@public` the Public collection, the
 * fields only Agora peers read dropped. Ids with no URL (another server's circle, a remote
 * object never met) are left out of `to`/`cc`; an activity whose actor or object has none is not
 * sent (undefined).
 */
import type { FederationContext } from '../context';
import { idMap, type IdMap } from './ids';
import { AP_CONTEXT, AP_PUBLIC } from './vocab';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
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

export async function toActivityPub(ctx: FederationContext, activity: Json): Promise<Json | undefined> {
  const ids = idMap(ctx.config, ctx.stores.activityPub);
  const actorId = typeof activity.actorId === 'string' ? activity.actorId : undefined;
  const actorUrl = actorId && (await ids.urlOf(actorId));
  if (!actorUrl) return undefined;
  const mapped = await object(ids, { ...activity, actor: actorUrl }, actorUrl);
  if (!mapped) return undefined;
  const rest = { ...mapped };
  delete rest['@context'];
  const isPublic = Array.isArray(rest.to) && rest.to.includes(AP_PUBLIC);
  return {
    '@context': AP_CONTEXT,
    ...rest,
    actor: actorUrl,
    ...(isPublic && rest.cc === undefined ? { cc: [`${actorUrl}/followers`] } : {}),
  };
}
