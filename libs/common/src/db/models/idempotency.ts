import { Schema, type InferSchemaType } from 'mongoose';

/**
 * A client `Idempotency-Key` claimed by one actor (decisions.md §4: kept 24 hours). `_id` is
 * `<actorId>|<key>`, so the claim (a plain insert: the primary key is the one uniqueness both
 * MongoDB and FerretDB enforce atomically) and every later read or write are `{ _id }` queries,
 * the only filter FerretDB's SQLite handler pushes down.
 */
export const idempotencyKeySchema = new Schema(
  {
    _id: { type: String, required: true },
    /** SHA-256 of the canonical request body: the same key with another body is refused. */
    bodyHash: { type: String, required: true },
    /** `pending` while the first request runs; `done` once its response is stored. */
    state: { type: String, enum: ['pending', 'done'], required: true },
    /** Which claim this row is (a retried claim after a release or expiry is a new one). */
    claimId: { type: String, required: true },
    claimedAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
    /** The stored response of a finished request, replayed to later requests with the key. */
    status: Number,
    response: Schema.Types.Mixed,
  },
  { collection: 'idempotency_keys', versionKey: false, minimize: false },
);

/**
 * Expiry at `expiresAt`. Not declared on the schema: FerretDB 1.24 refuses `expireAfterSeconds`
 * (NotImplemented) and would fail every index build. `syncIndexes` creates it where the database
 * accepts it (MongoDB); elsewhere the store treats expired rows as absent and the GC worker
 * deletes them.
 */
export const IDEMPOTENCY_TTL_INDEX = {
  key: { expiresAt: 1 },
  // Serves the server-side TTL monitor (MongoDB) and the GC's `expiresAt < now` sweep.
  options: { name: 'expiresAt_ttl', expireAfterSeconds: 0 },
} as const;

export type IdempotencyKeyDoc = InferSchemaType<typeof idempotencyKeySchema>;
