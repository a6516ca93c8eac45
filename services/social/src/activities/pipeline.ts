/**
 * POST /outbox (decisions.md §4): validate the envelope, run the handler for the type as the
 * authenticated actor, store the activity, then publish its events. The activity row is written
 * with `published: false` before the response; the relay (relay.ts) republishes any row whose
 * events did not reach the broker, so nothing accepted is lost.
 */
import { BadRequest, mintId, publishEvents, STAMPS, type AuthUser, type Runtime } from '@agora/common';
import { viewerFor } from '../views/viewer';
import { HANDLERS } from './registry';
import type { ActivityInput, DomainEvent, HandlerResult } from './types';
import { clean } from './validate';
import { reindexQuietly } from '../search/indexer';

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export interface ActivityOutcome {
  activity: Record<string, unknown>;
  result: Record<string, unknown> | null;
  createdId: string | undefined;
  replayed: boolean;
}

export function envelope(body: unknown): ActivityInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new BadRequest('body: must be an activity object');
  const b = body as Record<string, unknown>;
  if (typeof b.type !== 'string' || !b.type) throw new BadRequest('type: is required');
  if (!HANDLERS.has(b.type)) throw new BadRequest(`type: unsupported activity type ${b.type.slice(0, 40)}`);
  return b as unknown as ActivityInput;
}

export async function runActivity(
  rt: Runtime,
  actor: AuthUser,
  input: ActivityInput,
  opts: { idempotencyKey?: string } = {},
): Promise<ActivityOutcome> {
  const activities = rt.repos.activities;
  const dedupeKey = opts.idempotencyKey ? `${actor.id}:${opts.idempotencyKey}` : undefined;
  if (dedupeKey) {
    // Keys are kept for IDEMPOTENCY_TTL_MS (decisions.md §4: 24 h); an older one is released.
    await activities.releaseDedupeKey(dedupeKey, new Date(Date.now() - IDEMPOTENCY_TTL_MS));
    const prior = await activities.byDedupeKey(dedupeKey);
    if (prior)
      return {
        activity: present(prior),
        result: (prior.object as Record<string, unknown> | undefined) ?? null,
        createdId: prior.objectId ?? undefined,
        replayed: true,
      };
  }
  const viewer = await viewerFor(rt, actor);
  const handler = HANDLERS.get(input.type)!;
  const out: HandlerResult = await handler({ rt, actor, viewer, activity: input });
  await reindexQuietly(rt, out.objectId);
  // What the actor reads next (their blocks, mutes, reactions, memberships) must show their change.
  await rt.stamps.bump([STAMPS.viewer(actor.id)]);
  const id = mintId('activity', rt.config.DOMAIN);
  const events: DomainEvent[] = [
    {
      name: `activity.${input.type.toLowerCase()}`,
      payload: { activityId: id, actorId: actor.id, objectId: out.objectId ?? null },
    },
    ...(out.events ?? []),
  ];
  const doc = {
    id,
    type: input.type,
    actorId: actor.id,
    objectType: out.objectType ?? (typeof input.objectType === 'string' ? input.objectType : undefined),
    objectId: out.objectId,
    target: out.target ?? (typeof input.target === 'string' ? input.target : undefined),
    to: out.to ?? (typeof input.to === 'string' ? input.to : undefined),
    object: out.result ?? undefined,
    server: `@${rt.config.DOMAIN}`,
    ...(dedupeKey ? { dedupeKey } : {}),
  };
  // Two requests with one Idempotency-Key: the first stored wins, the second replays it.
  const saved = await activities.record(doc, events);
  if (!saved) return runActivity(rt, actor, input, opts);
  await publishEvents(rt, id, events);
  return {
    activity: present(saved),
    result: out.result,
    createdId: out.objectId,
    replayed: false,
  };
}

function present(doc: Record<string, unknown>): Record<string, unknown> {
  const { dedupeKey, ...rest } = clean(doc) ?? {};
  void dedupeKey;
  return rest;
}
