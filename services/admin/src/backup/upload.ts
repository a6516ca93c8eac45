/**
 * The restore upload (spec 4.5): multipart field `archive`, at most 512 MB, streamed part by
 * part into object storage under `restore-uploads/` (a multer storage engine over the storage
 * port), never held whole in memory or written to the service's disk.
 */
import { randomBytes } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import multer, { MulterError } from 'multer';
import { AppError, BadRequest } from '@agora/common/errors';
import { RESTORE_UPLOAD_MAX_BYTES, RESTORE_UPLOAD_PREFIX } from '@agora/common/messaging';
import type { ObjectStorage } from '@agora/common/storage';

export interface StoredUpload {
  key: string;
  size: number;
  originalname: string;
}

class ObjectStorageEngine implements multer.StorageEngine {
  constructor(private readonly storage: ObjectStorage) {}

  _handleFile(
    _req: Request,
    file: Express.Multer.File,
    cb: (error?: unknown, info?: Partial<Express.Multer.File> & { key?: string }) => void,
  ): void {
    const key = `${RESTORE_UPLOAD_PREFIX}${Date.now()}-${randomBytes(6).toString('hex')}.tar.gz`;
    this.storage.put(key, file.stream, { contentType: 'application/gzip' }).then(
      (info) => cb(null, { key, size: info.size }),
      (err: unknown) => cb(err),
    );
  }

  _removeFile(
    _req: Request,
    file: Express.Multer.File & { key?: string },
    cb: (error: Error | null) => void,
  ): void {
    if (!file.key) return cb(null);
    this.storage.delete(file.key).then(
      () => cb(null),
      (err: Error) => cb(err),
    );
  }
}

const TOO_LARGE = `archive: larger than ${RESTORE_UPLOAD_MAX_BYTES / 1024 / 1024} MB`;

/** Parses the upload; `req.file` holds `{ key, size, originalname }` when a file came. */
export function restoreUpload(storage: ObjectStorage): RequestHandler {
  const parse = multer({
    storage: new ObjectStorageEngine(storage),
    limits: { fileSize: RESTORE_UPLOAD_MAX_BYTES, files: 1, fields: 10, parts: 11, fieldSize: 64 * 1024 },
  }).single('archive');
  return (req, res, next) => {
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      if (err instanceof MulterError) {
        if (err.code === 'LIMIT_FILE_SIZE') return next(new AppError(413, TOO_LARGE));
        if (err.code === 'LIMIT_UNEXPECTED_FILE')
          return next(
            new BadRequest(`${err.field ?? 'file'}: unexpected file field (send the archive as "archive")`),
          );
        return next(new BadRequest(`multipart body: ${err.message}`));
      }
      // busboy's parse errors (malformed multipart) are client errors.
      if (err instanceof Error && /multipart|boundary|busboy|unexpected end of form/i.test(err.message))
        return next(new BadRequest(`multipart body: ${err.message}`));
      next(err);
    });
  };
}

export function uploadedFile(req: Request): StoredUpload | undefined {
  const f = (req as Request & { file?: Express.Multer.File & { key?: string } }).file;
  return f?.key ? { key: f.key, size: f.size, originalname: f.originalname } : undefined;
}
