/**
 * The files store (issue 12), written over the engine port (ADR 0013): file records, their
 * attachment to a parent object, soft deletion, and the per-user storage counter kept beside
 * them. Records are created only after the bytes are stored; the quota is reserved by one
 * conditional `$inc` on the user's usage document, so uploads racing for the last bytes cannot
 * both pass, and every state change that must have one winner (attach, delete) is a
 * compare-and-set on the record.
 */
import type { CollectionSpec, Engine, Filter, Sort } from '../engine/port';
import { mintId } from '../ids';

export const FILE_KINDS = ['Image', 'Video', 'Audio', 'Document'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

export type FileVariant = {
  key: string;
  mediaType: string;
  size: number;
  width?: number;
  height?: number;
};

export type FileRecord = {
  _id: string;
  id: string;
  objectType: 'File';
  type: FileKind;
  actorId: string;
  /** A display name derived from the client's file name (never used in a storage key). */
  name: string;
  summary: string;
  /** What the file shows, for readers who cannot see it: an image's alt text (ADR 0021). */
  description?: string;
  mediaType: string;
  size: number;
  width?: number;
  height?: number;
  /** SHA-256 hex of the stored bytes (after metadata stripping for images). */
  checksum: string;
  storageKey: string;
  preview: FileVariant | null;
  /** Dominant colour `#rrggbb` of an image, a placeholder while it loads. */
  color: string | null;
  /** The file's own audience, until it is attached; then the parent's. */
  to: string;
  parentObject: string | null;
  attachedAt: Date | null;
  url: string;
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

/** A record as any caller may be shown it: no storage keys. */
export type PublicFile = Omit<FileRecord, '_id' | 'storageKey' | 'preview'> & {
  preview: Omit<FileVariant, 'key'> | null;
};

export type NewFile = {
  actorId: string;
  type: FileKind;
  name: string;
  summary: string;
  description?: string;
  mediaType: string;
  size: number;
  width?: number | undefined;
  height?: number | undefined;
  checksum: string;
  storageKey: string;
  preview?: FileVariant | null;
  color?: string | null;
  to: string;
  parentObject?: string | null;
};

/** One document per user (`_id` = user id): bytes and files stored. */
type UsageRecord = {
  _id: string;
  bytes: number;
  files: number;
};

export const FILES: CollectionSpec = {
  name: 'files',
  indexes: [
    // GET /files: the owner's live files (optionally of one type), newest first; account deletion.
    {
      fields: [
        ['actorId', 1],
        ['deletedAt', 1],
        ['createdAt', -1],
      ],
      serves: 'files.listOwned, deleteOwnedBy',
    },
    {
      fields: [
        ['actorId', 1],
        ['type', 1],
        ['deletedAt', 1],
        ['createdAt', -1],
      ],
      serves: 'files.listOwned by type',
    },
    // Files following a deleted parent, and the GC's sweep of never-attached uploads (parent null).
    {
      fields: [
        ['parentObject', 1],
        ['deletedAt', 1],
        ['createdAt', 1],
      ],
      serves: 'files.deleteAttachedTo, orphansBefore',
    },
    // The GC's sweep of deleted files whose bytes are still stored.
    { fields: [['deletedAt', 1]], serves: 'files.deletedBatch' },
  ],
  dates: ['attachedAt', 'deletedAt', 'createdAt', 'updatedAt'],
};

export const STORAGE_USAGE: CollectionSpec = {
  name: 'storage_usage',
  // Every read and write is by `_id` (the user's id).
  indexes: [],
};

const NEWEST: Sort = [
  ['createdAt', -1],
  ['_id', -1],
];
const OLDEST: Sort = [
  ['createdAt', 1],
  ['_id', 1],
];

/** The record without its storage keys. */
export function publicFile(doc: FileRecord): PublicFile {
  const { _id, storageKey, preview, ...rest } = doc;
  void _id;
  void storageKey;
  if (!preview) return { ...rest, preview: null };
  const { key, ...shown } = preview;
  void key;
  return { ...rest, preview: shown };
}

export class FilesStore {
  private readonly files;
  private readonly usage;

  constructor(
    engine: Engine,
    private readonly domain: string,
    private readonly publicUrl: string,
  ) {
    this.files = engine.collection<FileRecord>(FILES);
    this.usage = engine.collection<UsageRecord>(STORAGE_USAGE);
  }

  /** A new id for bytes about to be stored (the storage key is derived from it). */
  mintId(): string {
    return mintId('file', this.domain);
  }

  /**
   * Adds `bytes` to the user's usage if it stays within `quota`; false when it would not. The
   * document exists first (an upsert that changes nothing when it does), then one `$inc`
   * conditional on the bound moves it: atomic on the one document, on either engine.
   */
  async reserve(actorId: string, bytes: number, quota: number): Promise<boolean> {
    await this.usage.updateOne({ _id: actorId }, { $setOnInsert: { bytes: 0, files: 0 } }, { upsert: true });
    const res = await this.usage.updateOne(
      { _id: actorId, bytes: { $lte: quota - bytes } },
      { $inc: { bytes, files: 1 } },
    );
    return res.matched === 1;
  }

  async release(actorId: string, bytes: number): Promise<void> {
    await this.usage.updateOne({ _id: actorId }, { $inc: { bytes: -bytes, files: -1 } });
  }

  async usageOf(actorId: string): Promise<{ bytes: number; files: number }> {
    const doc = await this.usage.findOne({ _id: actorId });
    return { bytes: doc?.bytes ?? 0, files: doc?.files ?? 0 };
  }

  async create(id: string, input: NewFile): Promise<FileRecord> {
    const now = new Date();
    const doc: FileRecord = {
      ...input,
      _id: id,
      id,
      objectType: 'File',
      preview: input.preview ?? null,
      color: input.color ?? null,
      url: `${this.publicUrl}/files/${id}`,
      parentObject: input.parentObject ?? null,
      attachedAt: input.parentObject ? now : null,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    const stored = Object.fromEntries(Object.entries(doc).filter(([, v]) => v !== undefined)) as FileRecord;
    await this.files.insertOne(stored);
    return stored;
  }

  /** A live record with its storage keys (for serving and deleting). */
  async findLive(id: string): Promise<FileRecord | null> {
    if (typeof id !== 'string' || !id) return null;
    const doc = await this.files.findOne({ _id: id });
    return doc && !doc.deletedAt ? doc : null;
  }

  /** The same record without storage keys, as clients see it. */
  async findPublic(id: string): Promise<PublicFile | null> {
    const doc = await this.findLive(id);
    return doc ? publicFile(doc) : null;
  }

  /** GET /files: the owner's live files, newest first. */
  async listOwned(
    actorId: string,
    opts: { type?: string; skip: number; limit: number },
  ): Promise<{ total: number; items: PublicFile[] }> {
    const filter: Filter = { actorId, deletedAt: null, ...(opts.type ? { type: opts.type } : {}) };
    const [total, items] = await Promise.all([
      this.files.count(filter),
      this.files.find(filter, { sort: NEWEST, skip: opts.skip, limit: opts.limit }),
    ]);
    return { total, items: items.map(publicFile) };
  }

  /**
   * Attaches the owner's files to `parentId`. Every id must be a live file of `actorId` that is
   * unattached or already attached to this parent; returns the ids that are not (nothing changes
   * then). Each attach is conditional on the file being unattached still, so of concurrent
   * attaches of one file to different parents exactly one wins; the others get the file back as
   * refused, and undo what they attached before it.
   */
  async attach(actorId: string, fileIds: string[], parentId: string): Promise<string[]> {
    const docs = await Promise.all(fileIds.map((id) => this.findLive(id)));
    const bad = fileIds.filter((_id, i) => {
      const d = docs[i];
      return !d || d.actorId !== actorId || (d.parentObject !== null && d.parentObject !== parentId);
    });
    if (bad.length) return bad;
    const attached: string[] = [];
    for (const [i, id] of fileIds.entries()) {
      if (docs[i]?.parentObject === parentId) continue;
      const now = new Date();
      const res = await this.files.updateOne(
        { _id: id, parentObject: null, deletedAt: null },
        { $set: { parentObject: parentId, attachedAt: now, updatedAt: now } },
      );
      if (res.matched === 1) {
        attached.push(id);
        continue;
      }
      for (const done of attached)
        await this.files.updateOne(
          { _id: done, parentObject: parentId },
          { $set: { parentObject: null, attachedAt: null, updatedAt: new Date() } },
        );
      return [id];
    }
    return [];
  }

  /**
   * Soft-deletes a live file and returns its record as it was (null when missing or already
   * deleted). The write is conditional on `deletedAt` being null, so of concurrent deleters
   * exactly one gets the record, and only that one gives the bytes back to the quota.
   */
  async markDeleted(id: string): Promise<FileRecord | null> {
    if (typeof id !== 'string' || !id) return null;
    const now = new Date();
    const before = await this.files.findOneAndUpdate(
      { _id: id, deletedAt: null },
      { $set: { deletedAt: now, updatedAt: now } },
      { returning: 'before' },
    );
    if (!before) return null;
    await this.release(before.actorId, before.size);
    return before;
  }

  /** A deleted parent's files follow it (soft-deleted; the GC removes the bytes). */
  async deleteAttachedTo(parentId: string): Promise<number> {
    return this.deleteAll(await this.files.find({ parentObject: parentId, deletedAt: null }, { fields: [] }));
  }

  /**
   * A deleted account's files, whatever they are attached to (account deletion: nobody may read
   * them any more, its unattached public uploads included; the GC removes the bytes).
   */
  async deleteOwnedBy(actorId: string): Promise<number> {
    return this.deleteAll(await this.files.find({ actorId, deletedAt: null }, { fields: [] }));
  }

  private async deleteAll(rows: Array<{ _id: string }>): Promise<number> {
    let n = 0;
    for (const r of rows) if (await this.markDeleted(r._id)) n++;
    return n;
  }

  /** Sets a live file's description; the record after, or null when there is none. */
  async describe(id: string, description: string): Promise<FileRecord | null> {
    if (typeof id !== 'string' || !id) return null;
    return this.files.findOneAndUpdate(
      { _id: id, deletedAt: null },
      { $set: { description, updatedAt: new Date() } },
      { returning: 'after' },
    );
  }

  /** Never-attached uploads older than `before`, oldest first (the GC deletes them after a day). */
  async orphansBefore(before: Date, limit: number): Promise<FileRecord[]> {
    return this.files.find(
      { parentObject: null, deletedAt: null, createdAt: { $lt: before } },
      { sort: OLDEST, limit },
    );
  }

  /** Soft-deleted records whose bytes the GC still has to remove. */
  async deletedBatch(limit: number): Promise<FileRecord[]> {
    return this.files.find({ deletedAt: { $ne: null } }, { limit });
  }

  /** Removes a record once its bytes are gone. */
  async purge(id: string): Promise<void> {
    if (typeof id !== 'string' || !id) return;
    await this.files.deleteOne({ _id: id, deletedAt: { $ne: null } });
  }
}
