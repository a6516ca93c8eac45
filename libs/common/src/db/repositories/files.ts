/**
 * The files store (issue 12): file records, their attachment to a parent object, soft deletion,
 * and the per-user storage counter it keeps beside them. Records are created only after the
 * bytes are stored; the quota is reserved with one conditional `$inc`, so two uploads racing
 * for the last bytes cannot both pass.
 */
import type { FileDoc, Models } from '../models';
import { mintId } from '../ids';
import { totalSort } from './listing';

export type FileRecord = FileDoc & { createdAt?: Date; updatedAt?: Date };

export interface NewFile {
  actorId: string;
  type: FileDoc['type'];
  name: string;
  summary: string;
  mediaType: string;
  size: number;
  width?: number | undefined;
  height?: number | undefined;
  checksum: string;
  storageKey: string;
  preview?: { key: string; mediaType: string; size: number; width?: number; height?: number } | null;
  color?: string | null;
  to: string;
  parentObject?: string | null;
}

/** Projection of the fields any caller may be shown (the storage key stays inside). */
const PUBLIC_FIELDS = { _id: 0, __v: 0, storageKey: 0, 'preview.key': 0 } as const;

export class FilesRepository {
  constructor(
    private readonly models: Models,
    private readonly domain: string,
    private readonly publicUrl: string,
  ) {}

  /** A new id for bytes about to be stored (the storage key is derived from it). */
  mintId(): string {
    return mintId('file', this.domain);
  }

  /**
   * Adds `bytes` to the user's usage if it stays within `quota`; false when it would not.
   * The filter is equality on `_id` plus a bound FerretDB checks on the one document.
   */
  async reserve(actorId: string, bytes: number, quota: number): Promise<boolean> {
    await this.models.StorageUsage.updateOne(
      { _id: actorId },
      { $setOnInsert: { bytes: 0, files: 0 } },
      { upsert: true },
    );
    const res = await this.models.StorageUsage.updateOne(
      { _id: actorId, bytes: { $lte: quota - bytes } },
      { $inc: { bytes, files: 1 } },
    );
    return res.modifiedCount === 1;
  }

  async release(actorId: string, bytes: number): Promise<void> {
    await this.models.StorageUsage.updateOne({ _id: actorId }, { $inc: { bytes: -bytes, files: -1 } });
  }

  async usageOf(actorId: string): Promise<{ bytes: number; files: number }> {
    const doc = await this.models.StorageUsage.findOne({ _id: actorId }).lean();
    return { bytes: doc?.bytes ?? 0, files: doc?.files ?? 0 };
  }

  async create(id: string, input: NewFile): Promise<FileRecord> {
    const doc = await this.models.File.create({
      ...input,
      _id: id,
      id,
      url: `${this.publicUrl}/files/${id}`,
      parentObject: input.parentObject ?? null,
      attachedAt: input.parentObject ? new Date() : null,
    });
    return doc.toObject();
  }

  /** A live record with its storage keys (for serving and deleting). */
  async findLive(id: string): Promise<FileRecord | null> {
    if (typeof id !== 'string') return null;
    // Exactly `{ _id }`: the one filter every engine answers from an index (ADR 0005).
    const doc = await this.models.File.findOne({ _id: id }).lean<FileRecord>();
    return doc && !doc.deletedAt ? doc : null;
  }

  /** The same record without storage keys, as clients see it. */
  async findPublic(id: string): Promise<Record<string, unknown> | null> {
    if (typeof id !== 'string') return null;
    const doc = await this.models.File.findOne({ _id: id }, PUBLIC_FIELDS).lean<Record<string, unknown>>();
    return doc && !doc.deletedAt ? doc : null;
  }

  /** GET /files: the owner's live files, newest first (scans the owner's files: not a hot path). */
  async listOwned(actorId: string, opts: { type?: string; skip: number; limit: number }) {
    const filter: Record<string, unknown> = {
      actorId,
      deletedAt: null,
      ...(opts.type ? { type: opts.type } : {}),
    };
    const [total, items] = await Promise.all([
      this.models.File.countDocuments(filter),
      this.models.File.find(filter, PUBLIC_FIELDS)
        .sort(totalSort({ createdAt: -1 }))
        .skip(opts.skip)
        .limit(opts.limit)
        .lean<Record<string, unknown>[]>(),
    ]);
    return { total, items };
  }

  /**
   * Attaches the owner's files to `parentId`. Every id must be a live file of `actorId` that is
   * unattached or already attached to this parent; returns the ids that are not (nothing changes
   * then).
   */
  async attach(actorId: string, fileIds: string[], parentId: string): Promise<string[]> {
    const docs = await Promise.all(fileIds.map((id) => this.findLive(id)));
    const bad = fileIds.filter((_id, i) => {
      const d = docs[i];
      return !d || d.actorId !== actorId || (d.parentObject !== null && d.parentObject !== parentId);
    });
    if (bad.length) return bad;
    for (const id of fileIds)
      // The second key keeps two concurrent attaches from both winning (a scan on SQLite; rare).
      await this.models.File.updateOne(
        { _id: id, parentObject: null },
        { $set: { parentObject: parentId, attachedAt: new Date() } },
      );
    return [];
  }

  /** Soft-deletes a file and returns its record (null when missing); the GC removes the bytes. */
  async markDeleted(id: string): Promise<FileRecord | null> {
    // `_id` only; the document before the update tells which of concurrent deleters deleted it
    // (only that one gives the bytes back to the quota).
    const before = await this.models.File.findOneAndUpdate(
      { _id: id },
      { $set: { deletedAt: new Date() } },
      { returnDocument: 'before' },
    ).lean<FileRecord>();
    if (!before || before.deletedAt) return null;
    await this.release(before.actorId, before.size);
    return before;
  }

  /**
   * A deleted parent's files follow it (soft-deleted; the GC removes the bytes). Equality on
   * `parentObject` (pushed down on PostgreSQL, a scan of `files` on SQLite) once per Delete.
   */
  async deleteAttachedTo(parentId: string): Promise<number> {
    const docs = await this.models.File.find({ parentObject: parentId, deletedAt: null }, { id: 1 }).lean();
    let n = 0;
    for (const d of docs) if (await this.markDeleted(d.id)) n++;
    return n;
  }

  /**
   * A deleted account's files, whatever they are attached to (account deletion: nobody may read
   * them any more, its unattached public uploads included; the GC removes the bytes). Equality on
   * `actorId`, a scan: an account is deleted rarely.
   */
  async deleteOwnedBy(actorId: string): Promise<number> {
    const docs = await this.models.File.find({ actorId, deletedAt: null }, { id: 1 }).lean();
    let n = 0;
    for (const d of docs) if (await this.markDeleted(d.id)) n++;
    return n;
  }

  /**
   * Never-attached uploads older than `before` (the GC deletes them after a day). The filter's
   * range is checked by FerretDB after the `parentObject` equality; the GC runs daily in batches.
   */
  async orphansBefore(before: Date, limit: number): Promise<FileRecord[]> {
    return this.models.File.find({ parentObject: null, deletedAt: null, createdAt: { $lt: before } })
      .limit(limit)
      .lean<FileRecord[]>();
  }

  /** Soft-deleted records whose bytes the GC still has to remove. */
  async deletedBatch(limit: number): Promise<FileRecord[]> {
    return this.models.File.find({ deletedAt: { $ne: null } })
      .limit(limit)
      .lean<FileRecord[]>();
  }

  /** Removes a record once its bytes are gone. */
  async purge(id: string): Promise<void> {
    await this.models.File.deleteOne({ _id: id, deletedAt: { $ne: null } });
  }
}
