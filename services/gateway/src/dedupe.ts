/**
 * Outbox de-duplication of spec 1.6: SHA-256 over actor (the verified user), type, object type,
 * addressing, target id and content; an identical submission within 30 s → 409. The hold is
 * released as soon as the response ends with a status ≥ 400; React is exempt (toggle). Runs
 * before the service parses the activity; shared across replicas through the hold store.
 */
import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { isOutboxPost, jsonOf } from './body-limit';
import type { HoldStore } from './stores';

export const DEDUPE_WINDOW_MS = 30_000;

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
const idOf = (v: unknown): unknown => asObj(v)?.id ?? v;

export function dedupeKey(actor: string, activity: Obj): string {
  const object = asObj(activity.object);
  const parts = {
    actor,
    type: activity.type ?? null,
    objectType: activity.objectType ?? object?.type ?? null,
    to: activity.to ?? object?.to ?? null,
    target: idOf(activity.target) ?? null,
    // The spec hashes the content; an activity without one (Update, Add, Flag…) is told apart
    // by its object, so two different edits within the window are not taken for duplicates.
    content: object?.content ?? activity.content ?? activity.object ?? null,
  };
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

export function outboxDedupe(opts: {
  enabled: boolean;
  store: HoldStore;
  windowMs?: number;
}): RequestHandler {
  if (!opts.enabled) return (_req, _res, next) => next();
  const windowMs = opts.windowMs ?? DEDUPE_WINDOW_MS;
  return (req, res, next) => {
    if (!isOutboxPost(req.method, req.path)) return next();
    // A client that sends an Idempotency-Key gets the first result replayed by the service
    // instead of a 409 (decisions.md §4).
    if (req.headers['idempotency-key']) return next();
    const activity = asObj(jsonOf(req));
    if (!activity || activity.type === 'React') return next();
    const key = `dedupe:${dedupeKey(req.edge?.sub ?? `anon:${req.ip ?? ''}`, activity)}`;
    opts.store.acquire(key, windowMs).then(
      (free) => {
        if (!free) return void res.status(409).json({ error: 'Duplicate activity' });
        res.on('finish', () => {
          if (res.statusCode >= 400) void opts.store.release(key).catch(() => undefined);
        });
        res.on('close', () => {
          if (!res.writableFinished) void opts.store.release(key).catch(() => undefined);
        });
        next();
      },
      // The store is away (Redis down): skip de-duplication rather than refuse writes.
      () => next(),
    );
  };
}
