/**
 * The multer storage engine of POST /files: the part's stream goes straight to object storage
 * (never to a temporary file, never whole into memory except an image's bytes inside libvips),
 * hashed and counted on the way. The type comes from the first bytes; the size limit stops the
 * stream as soon as it is passed. Whatever fails, nothing stays stored.
 */
import { createHash } from 'node:crypto';
import type { Readable, Transform } from 'node:stream';
import type { Request } from 'express';
import type { StorageEngine } from 'multer';
import { AppError, BadRequest, PayloadTooLarge } from '@agora/common/errors';
import type { ObjectStorage } from '@agora/common/storage';
import { fromIterable, mapChunks, through } from '@agora/common/streams';
import { allowedBy, sniff, SNIFF_BYTES, type FileKind, type Sniffed } from './sniff';
import { processImage } from './images';

export class UnsupportedType extends AppError {
  constructor(message: string) {
    super(415, message);
  }
}

export interface UploadLimits {
  /** Bytes allowed for this upload (the smaller of the size setting and the quota left). */
  maxBytes: number;
  maxImageBytes: number;
  /** Which limit `maxBytes` is, for the 413 message. */
  reason: 'size' | 'quota';
  allowedTypes: unknown;
}

export interface StoredUpload {
  id: string;
  storageKey: string;
  mediaType: string;
  kind: FileKind;
  size: number;
  checksum: string;
  width?: number;
  height?: number;
  preview?: { key: string; mediaType: string; size: number; width: number; height: number };
  color?: string;
}

export interface EngineDeps {
  storage: ObjectStorage;
  mintId: () => string;
  limits: (req: Request) => UploadLimits;
}

/** Storage keys never contain anything the client sent (names can carry `../`). */
export function keysFor(id: string): { original: string; preview: string } {
  const oid = id.slice(id.indexOf(':') + 1, id.indexOf('@'));
  return { original: `files/${oid}`, preview: `files/${oid}.preview.webp` };
}

/** Resolves with the first `n` bytes (fewer if the stream ends) and a stream of all bytes. */
function peek(stream: Readable, n: number): Promise<{ head: Buffer; body: Readable }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const finish = () => {
      stream.off('data', onData);
      stream.off('end', finish);
      stream.off('error', reject);
      stream.pause();
      const head = Buffer.concat(chunks);
      const rest = async function* () {
        yield head;
        // Not destroyed on an early stop: multer would take the AbortError for the upload's
        // failure; the engine drains the rest of the part instead.
        for await (const chunk of stream.iterator({ destroyOnReturn: false })) yield chunk as Buffer;
      };
      resolve({ head, body: fromIterable(rest()) });
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= n) finish();
    };
    stream.on('data', onData);
    stream.once('end', finish);
    stream.once('error', reject);
  });
}

/** Counts and hashes what passes; fails with 413 past `max` bytes. */
interface Meter {
  stream: Transform;
  size(): number;
  /** The limit error, kept: stream teardown may surface an AbortError in its place. */
  failure(): Error | undefined;
  digest(): string;
}

function meter(max: number, tooLarge: () => Error): Meter {
  const hash = createHash('sha256');
  let size = 0;
  let failure: Error | undefined;
  const stream = mapChunks((chunk) => {
    size += chunk.length;
    if (size > max) throw (failure = tooLarge());
    hash.update(chunk);
    return chunk;
  });
  return { stream, size: () => size, failure: () => failure, digest: () => hash.digest('hex') };
}

export function tooLargeError(limits: UploadLimits, image: boolean): PayloadTooLarge {
  if (limits.reason === 'quota' && !image) return new PayloadTooLarge('Storage quota exceeded');
  const max = image ? Math.min(limits.maxImageBytes, limits.maxBytes) : limits.maxBytes;
  return new PayloadTooLarge(`File too large (limit ${Math.floor(max / (1024 * 1024))} MB)`);
}

async function store(deps: EngineDeps, req: Request, source: Readable): Promise<StoredUpload> {
  const limits = deps.limits(req);
  const { head, body } = await peek(source, SNIFF_BYTES);
  if (head.length === 0) throw new BadRequest('file: is empty');
  const type = sniff(head);
  if (!type) throw new UnsupportedType('file: type not allowed (images, video, audio and PDF only)');
  if (!allowedBy(limits.allowedTypes, type.mediaType))
    throw new UnsupportedType(`file: type ${type.mediaType} is not allowed on this server`);
  const id = deps.mintId();
  const keys = keysFor(id);
  const image = type.kind === 'Image';
  const max = image ? Math.min(limits.maxImageBytes, limits.maxBytes) : limits.maxBytes;
  const m = meter(max, () => tooLargeError(limits, image));
  const metered = through(body, m.stream);
  try {
    return await storeMetered(deps, { id, keys, type, image }, metered, m);
  } catch (err) {
    throw m.failure() ?? err;
  }
}

async function storeMetered(
  deps: EngineDeps,
  {
    id,
    keys,
    type,
    image,
  }: { id: string; keys: { original: string; preview: string }; type: Sniffed; image: boolean },
  metered: Readable,
  meter: Meter,
): Promise<StoredUpload> {
  if (!image) {
    const info = await deps.storage.put(keys.original, metered, { contentType: type.mediaType });
    return {
      id,
      storageKey: keys.original,
      mediaType: type.mediaType,
      kind: type.kind,
      size: info.size,
      checksum: meter.digest(),
    };
  }
  const img = await processImage(metered, type.mediaType);
  await deps.storage.put(keys.original, img.data, { contentType: type.mediaType });
  try {
    await deps.storage.put(keys.preview, img.preview.data, { contentType: 'image/webp' });
  } catch (err) {
    await deps.storage.delete(keys.original).catch(() => undefined);
    throw err;
  }
  return {
    id,
    storageKey: keys.original,
    mediaType: type.mediaType,
    kind: type.kind,
    size: img.data.length,
    checksum: createHash('sha256').update(img.data).digest('hex'),
    width: img.width,
    height: img.height,
    preview: {
      key: keys.preview,
      mediaType: 'image/webp',
      size: img.preview.data.length,
      width: img.preview.width,
      height: img.preview.height,
    },
    color: img.color,
  };
}

export async function removeStored(
  storage: ObjectStorage,
  upload: { storageKey: string; preview?: { key: string } | null | undefined },
) {
  await storage.delete(upload.storageKey);
  if (upload.preview) await storage.delete(upload.preview.key);
}

export function streamingEngine(deps: EngineDeps): StorageEngine {
  return {
    _handleFile(req, file, cb) {
      store(deps, req, file.stream).then(
        (stored) => cb(null, stored as unknown as Partial<Express.Multer.File>),
        (err: unknown) => {
          // Leave the rest of the part to multer, which drains the request before answering.
          file.stream.resume();
          cb(err);
        },
      );
    },
    _removeFile(_req, file, cb) {
      const stored = file as unknown as StoredUpload;
      if (!stored.storageKey) return cb(null);
      removeStored(deps.storage, stored).then(
        () => cb(null),
        (err: unknown) => cb(err as Error),
      );
    },
  };
}
