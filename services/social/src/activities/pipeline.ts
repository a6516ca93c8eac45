/**
 * POST /outbox (decisions.md §4): validate the envelope, run the handler for the type as the
 * authenticated actor, store the activity with its events on an outbox row before the response,
 * then publish them; the service's outbox relay (@agora/common/messaging, outbox-relay.ts)
 * republishes any row whose events did not reach the broker, so nothing accepted is lost.
 *
 * With an `Idempotency-Key` the key is claimed before the handler runs (the idempotency store,
 * docs/architecture.md "Idempotency-Key"): one request per (actor, key) runs; the others replay
 * its stored response, wait for it, or are refused (409 in flight, 422 for another body).
 */
import { STAMPS } from '@agora/common/cache';
import { mintId, requestHash } from '@agora/common/db';
import { BadRequest, Conflict, UnprocessableEntity } from '@agora/common/errors';
import type { AuthUser } from '@agora/common/http';
import { activityEventName, domainEvent, publishEvents } from '@agora/common/messaging';
import type { SocialContext } from '../context';
import { viewerFor } from '../access/viewer';
import { HANDLERS } from './registry';
import type { ActivityInput, DomainEvent, HandlerResult } from './types';
import { clean } from './validate';
import { reindexQuietly } from '../search/indexer';

/** How long a request waits for an earlier one with its key to finish before answering 409. */
export const IDEMPOTENCY_WAIT_MS = 5000;

export interface ActivityOutcome {
  activity: Record<string, unknown>;
  result: Record<string, unknown> | null;
  createdId: string | undefined;
  replayed: boolean;
  /** The handler answered with what existed already (HandlerResult.existing). */
  existing?: boolean;
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
  ctx: SocialContext,
  actor: AuthUser,
  input: ActivityInput,
  opts: { idempotencyKey?: string } = {},
): Promise<ActivityOutcome> {
  const key = opts.idempotencyKey;
  if (!key) return execute(ctx, actor, input);
  const store = ctx.stores.idempotency;
  const hash = requestHash(input);
  let claim = await store.claim(actor.id, key, hash);
  if (claim.outcome === 'pending')
    claim = await store.waitFor(actor.id, key, hash, { timeoutMs: IDEMPOTENCY_WAIT_MS });
  switch (claim.outcome) {
    case 'mismatch':
      throw new UnprocessableEntity('Idempotency-Key: already used with a different request body');
    case 'pending':
      throw new Conflict('Idempotency-Key: a request with this key is still in progress');
    case 'done': {
      const r = claim.response;
      return {
        activity: (r.activity as Record<string, unknown> | undefined) ?? {},
        result: (r.result as Record<string, unknown> | null | undefined) ?? null,
        createdId: typeof r.createdId === 'string' ? r.createdId : undefined,
        replayed: true,
      };
    }
    case 'claimed':
      break;
  }
  let out: ActivityOutcome;
  try {
    out = await execute(ctx, actor, input);
  } catch (err) {
    // A failed request leaves nothing to replay: release the key so a retry runs again.
    await store
      .release(actor.id, key)
      .catch((e: Error) => ctx.logger.warn({ err: e.message }, 'idempotency key release failed'));
    throw err;
  }
  // Stored as the client reads it (JSON), so a replay answers with the same body.
  const response = JSON.parse(
    JSON.stringify({ activity: out.activity, result: out.result, createdId: out.createdId }),
  ) as Record<string, unknown>;
  // The activity is stored: if this write fails the row stays pending, and requests with the key
  // answer 409 until the lease ends rather than running the handler a second time.
  await store
    .complete(actor.id, key, { status: 201, response })
    .catch((e: Error) => ctx.logger.warn({ err: e.message }, 'idempotency key completion failed'));
  return out;
}

async function execute(ctx: SocialContext, actor: AuthUser, input: ActivityInput): Promise<ActivityOutcome> {
  const viewer = await viewerFor(ctx, actor);
  const handler = HANDLERS.get(input.type)!;
  const out: HandlerResult = await handler({ svc: ctx, actor, viewer, activity: input });
  await reindexQuietly(ctx, out.objectId, undefined, out.stored);
  // What the actor reads next (their blocks, mutes, reactions, memberships) must show their change.
  await ctx.stamps.bump([STAMPS.viewer(actor.id)]);
  const id = mintId('activity', ctx.config.DOMAIN);
  const events: DomainEvent[] = [
    domainEvent(activityEventName(input.type), {
      activityId: id,
      actorId: actor.id,
      objectId: out.objectId ?? null,
    }),
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
    server: `@${ctx.config.DOMAIN}`,
  };
  const saved = await ctx.stores.activities.record(doc, events);
  // Null only for a duplicate remoteId (inbound) or id: never for a freshly minted local id.
  if (!saved) throw new Error(`activity ${id} was recorded twice`);
  await publishEvents(ctx, id, events);
  return {
    activity: present(saved),
    result: out.result,
    createdId: out.objectId,
    replayed: false,
    ...(out.existing ? { existing: true } : {}),
  };
}

function present(doc: Record<string, unknown>): Record<string, unknown> {
  return clean(doc) ?? {};
}
