import type { Readable } from 'node:stream';

export interface ObjectInfo {
  key: string;
  size: number;
  /** Quotes stripped. MD5 hex for single uploads; S3 multipart uploads give `<md5>-<parts>`. */
  etag?: string;
  lastModified?: Date;
  /** Absent in `list()` results: S3 listings do not carry it. */
  contentType?: string;
}

export type PutBody = Buffer | string | NodeJS.ReadableStream | Readable;

export interface PutOptions {
  /** Defaults to `application/octet-stream` so every adapter reports the same value. */
  contentType?: string;
  /** When given, the upload fails with BadRequest (and stores nothing) if the body differs. */
  contentLength?: number;
}

export interface GetOptions {
  range?: { start: number; end: number };
}

/**
 * Object storage, one bucket (or one directory) per instance. Every adapter passes the same
 * contract suite (test/integration/storage.contract.test.ts), so callers never branch on it.
 * Keys are validated the same way everywhere (see keys.ts) so data can move between adapters.
 */
export interface ObjectStorage {
  /** Creates the bucket or directory when missing; safe to call on every start. */
  ensureBucket(): Promise<void>;
  /**
   * Streams are consumed part by part, never held whole in memory. On failure nothing is
   * stored and the source stream is destroyed.
   */
  put(key: string, body: PutBody, opts?: PutOptions): Promise<ObjectInfo>;
  /**
   * Throws NotFound when the key does not exist. The caller must consume or destroy `body`.
   * With `range` (inclusive byte offsets, already checked against the size by the caller) the
   * body holds only those bytes; `info.size` is still the whole object's size.
   */
  get(key: string, opts?: GetOptions): Promise<{ body: Readable; info: ObjectInfo }>;
  stat(key: string): Promise<ObjectInfo | null>;
  /** Succeeds when the key does not exist. */
  delete(key: string): Promise<void>;
  /** Every key under `prefix`, in UTF-8 byte order (S3's order), fetched page by page. */
  list(prefix?: string): AsyncIterable<ObjectInfo>;
  health(): Promise<{ ok: boolean; detail?: string }>;
}

/** Knobs for tests and tuning; not part of the configuration surface. */
export interface StorageTuning {
  /** Multipart part size in bytes (S3 minimum 5 MiB except the last part). Default 8 MiB. */
  partSize?: number;
  /** MaxKeys of each ListObjectsV2 call. Default 1000 (the S3 maximum). */
  listPageSize?: number;
  /** Called after each multipart part is stored; lets tests see that streams are not buffered. */
  onPartUploaded?: (e: { key: string; partNumber: number; size: number }) => void;
}
