/**
 * Inserts on one collection that arrive while earlier writes run go together in one `insertMany`
 * (group commit, ADR 0011 item 10). Each call still answers for its own document alone: an
 * invalid document fails its call with its ValidationError and is never sent, and a document the
 * server refuses (a duplicate `_id`, E11000) fails only its call, with the server's code; the
 * others of the batch are stored (`ordered: false`).
 *
 * Why: the embedded engine takes one write at a time (write-gate.ts), and FerretDB pays an
 * insert mostly per command (one SQLite transaction); ten posts inserted in one command cost
 * little more than one. On MongoDB it saves round trips.
 */
import { GroupCommit } from './group-commit';
import type { AnyModel } from './repositories/objects';
import { turnOf } from './write-gate';

type Doc = { toObject(): Record<string, unknown> };

interface Pending {
  doc: Doc;
  error?: Error;
}

/** The error a refused document's call fails with: the server's message and code (E11000). */
function refused(result: unknown): Error {
  const r = (result ?? {}) as { errmsg?: string; message?: string; code?: number };
  return Object.assign(new Error(r.errmsg ?? r.message ?? 'insert refused'), { code: r.code });
}

export class InsertBatch {
  private readonly commit: GroupCommit<Pending>;

  constructor(private readonly model: AnyModel) {
    this.commit = new GroupCommit((items) => this.write(items), turnOf(model));
  }

  /** Stores one document; resolves with it as stored (timestamps included). */
  async insert(fields: Record<string, unknown>): Promise<Record<string, unknown>> {
    const doc = new this.model(fields) as unknown as Doc;
    const item: Pending = { doc };
    await this.commit.add(item);
    if (item.error) throw item.error;
    return doc.toObject();
  }

  /**
   * One `insertMany` for the batch, which validates each document once. Unordered, so an invalid
   * or refused document stops none of the others; mongoose then reports each document's outcome
   * in `results`, in the batch's order (the document, its ValidationError, or the server's write
   * error). Any other failure (the connection) fails every call of the batch.
   */
  private async write(items: Pending[]): Promise<void> {
    try {
      await this.model.insertMany(
        items.map((i) => i.doc),
        { ordered: false, throwOnValidationError: true },
      );
    } catch (err) {
      const results = (err as { results?: unknown[] }).results;
      if (!Array.isArray(results) || results.length !== items.length) throw err;
      results.forEach((r, i) => {
        if (r !== items[i]!.doc) items[i]!.error = r instanceof Error ? r : refused(r);
      });
    }
  }
}
