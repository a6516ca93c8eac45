/**
 * Client `Idempotency-Key` claims (decisions.md §4; docs/messaging.md "Idempotency-Key"). A
 * request with a key first claims `(actor, key)` with a plain insert, before any handler runs:
 * the primary key makes exactly one of several concurrent requests the owner. The others see
 * the owner's row: the same body while it runs is `pending` (wait, then replay or 409), a
 * different body is a `mismatch` (422), a finished one is `done` (replay its stored response).
 * A failed request releases its claim, so a retry runs again.
 *
 * Written over the engine port (ADR 0013). Every read and write is by `_id` (`<actor>|<key>`).
 * Expiry: the port has no TTL indexes, so a row past `expiresAt` (or pending past the lease)
 * reads as absent and the next claim takes it over (a delete guarded by the row's `claimId`);
 * the nightly GC deletes what is left by an indexed `expiresAt` range (`purgeExpired`).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Collection, CollectionSpec, Engine, Value } from '../engine/port';
import { DuplicateKeyError } from '../engine/port';

/** decisions.md §4: a key is kept for 24 hours per actor. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/**
 * A claim still pending after this long belongs to a process that died mid-request; a new
 * request may take it over. Far longer than any handler runs (remote fetches stop at 10 s).
 */
export const IDEMPOTENCY_LEASE_MS = 5 * 60 * 1000;

export type IdempotencyClaim =
  | { outcome: 'claimed' }
  | { outcome: 'done'; status: number; response: Record<string, unknown> }
  | { outcome: 'pending' }
  | { outcome: 'mismatch' };

/** A key claimed by one actor: `_id` is `<actorId>|<key>`. */
export interface IdempotencyRecord {
  _id: string;
  /** SHA-256 of the canonical request body: the same key with another body is refused. */
  bodyHash: string;
  /** `pending` while the first request runs; `done` once its response is stored. */
  state: 'pending' | 'done';
  /** Which claim this row is (a retried claim after a release or expiry is a new one). */
  claimId: string;
  claimedAt: Date;
  expiresAt: Date;
  /** The stored response of a finished request, replayed to later requests with the key. */
  status?: number;
  response?: Record<string, Value>;
}

export const IDEMPOTENCY_KEYS: CollectionSpec = {
  name: 'idempotency_keys',
  indexes: [{ fields: [['expiresAt', 1]], serves: 'purgeExpired: rows past their 24 hours (the GC)' }],
  dates: ['claimedAt', 'expiresAt'],
};

type Row = IdempotencyRecord;

/** SHA-256 of the body in canonical JSON (object keys sorted), so key order does not matter. */
export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const rowId = (actorId: string, key: string) => `${actorId}|${key}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class IdempotencyStore {
  private readonly rows: Collection<IdempotencyRecord>;
  constructor(
    engine: Engine,
    private readonly clock: () => number = Date.now,
  ) {
    this.rows = engine.collection<IdempotencyRecord>(IDEMPOTENCY_KEYS);
  }

  /**
   * Claims the key for this request, or says who has it. Loops only when the row it collided
   * with vanished (released) or was abandoned and removed; after a few such races the key is
   * treated as busy.
   */
  async claim(
    actorId: string,
    key: string,
    bodyHash: string,
    at: number = this.clock(),
  ): Promise<IdempotencyClaim> {
    const _id = rowId(actorId, key);
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = attempt === 0 ? at : this.clock();
      try {
        await this.rows.insertOne({
          _id,
          bodyHash,
          state: 'pending',
          claimId: randomUUID(),
          claimedAt: new Date(now),
          expiresAt: new Date(now + IDEMPOTENCY_TTL_MS),
        });
        return { outcome: 'claimed' };
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
      const row = await this.rows.findOne({ _id });
      if (!row) continue;
      if (this.abandoned(row, now)) {
        await this.rows.deleteOne({ _id, claimId: row.claimId });
        continue;
      }
      return classify(row, bodyHash);
    }
    return { outcome: 'pending' };
  }

  /**
   * Waits (polling) while another request holds the key with this body. Returns as soon as it
   * finished (`done`), or its claim was released and this request claimed the key itself
   * (`claimed`); `pending` when the time is up.
   */
  async waitFor(
    actorId: string,
    key: string,
    bodyHash: string,
    opts: { timeoutMs: number; intervalMs?: number },
  ): Promise<IdempotencyClaim> {
    const deadline = this.clock() + opts.timeoutMs;
    for (;;) {
      await sleep(opts.intervalMs ?? 100);
      const row = await this.find(actorId, key);
      const seen = row ? classify(row, bodyHash) : await this.claim(actorId, key, bodyHash);
      if (seen.outcome !== 'pending' || this.clock() >= deadline) return seen;
    }
  }

  /** Stores the response of the request that holds the claim; later requests replay it. */
  async complete(
    actorId: string,
    key: string,
    result: { status: number; response: Record<string, unknown> },
  ): Promise<void> {
    await this.rows.updateOne(
      { _id: rowId(actorId, key) },
      { $set: { state: 'done', status: result.status, response: result.response as Record<string, Value> } },
    );
  }

  /** The request failed: forget the claim so a retry with the key runs again. */
  async release(actorId: string, key: string): Promise<void> {
    await this.rows.deleteOne({ _id: rowId(actorId, key) });
  }

  /** The live row for `(actor, key)` at a time (now); an expired or abandoned one reads as absent. */
  async find(actorId: string, key: string, at: number = this.clock()): Promise<Row | null> {
    const row = await this.rows.findOne({ _id: rowId(actorId, key) });
    return row && !this.abandoned(row, at) ? row : null;
  }

  /** Deletes rows past their 24 hours (the nightly GC worker), by the `expiresAt` index. */
  purgeExpired(now = new Date(this.clock())): Promise<number> {
    return this.rows.deleteMany({ expiresAt: { $lt: now } });
  }

  private abandoned(row: Row, now: number): boolean {
    if (row.expiresAt.getTime() <= now) return true;
    return row.state === 'pending' && row.claimedAt.getTime() + IDEMPOTENCY_LEASE_MS <= now;
  }
}

function classify(row: Row, bodyHash: string): IdempotencyClaim {
  if (row.bodyHash !== bodyHash) return { outcome: 'mismatch' };
  if (row.state === 'done')
    return {
      outcome: 'done',
      status: row.status ?? 200,
      response: row.response ?? {},
    };
  return { outcome: 'pending' };
}
