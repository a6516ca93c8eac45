/**
 * The POST /files body: authentication checked before a byte is read, limits computed from the
 * settings and the uploader's quota, one multer instance per request (its limits are per
 * instance), and multer's and busboy's errors turned into the one error model.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import multer, { MulterError } from 'multer';
import { AppError, BadRequest, PayloadTooLarge, Unauthorized } from '@agora/common/errors';
import type { SocialContext } from '../context';
import { streamingEngine, type StoredUpload, type UploadLimits } from './engine';

const MB = 1024 * 1024;
const LIMITS = Symbol('uploadLimits');

type WithLimits = Request & { [LIMITS]?: UploadLimits };

async function limitsFor(ctx: SocialContext, actorId: string): Promise<UploadLimits> {
  const num = async (name: string, fallback: number) => {
    const v = Number(await ctx.stores.settings.get<number>(name));
    return Number.isFinite(v) && v >= 0 ? v : fallback;
  };
  const maxUpload = (await num('maxUploadSize', 100)) * MB;
  const maxImage = (await num('maxImageUploadSize', 40)) * MB;
  const quota = (await num('userStorageQuota', 1024)) * MB;
  const allowedTypes = await ctx.stores.settings.get('allowedUploadTypes');
  if (quota === 0) return { maxBytes: maxUpload, maxImageBytes: maxImage, reason: 'size', allowedTypes };
  const left = Math.max(0, quota - (await ctx.stores.files.usageOf(actorId)).bytes);
  return left < maxUpload
    ? { maxBytes: left, maxImageBytes: maxImage, reason: 'quota', allowedTypes }
    : { maxBytes: maxUpload, maxImageBytes: maxImage, reason: 'size', allowedTypes };
}

/** The quota in bytes (0: none), for the reservation after the bytes are stored. */
export async function quotaBytes(ctx: SocialContext): Promise<number> {
  const v = Number(await ctx.stores.settings.get<number>('userStorageQuota'));
  return Number.isFinite(v) && v > 0 ? v * MB : 0;
}

function asClientError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  if (err instanceof MulterError) {
    switch (err.code) {
      case 'LIMIT_UNEXPECTED_FILE':
        return new BadRequest(
          `file: send the file in the "file" field (got "${String(err.field).slice(0, 40)}")`,
        );
      case 'LIMIT_FILE_COUNT':
        return new BadRequest('file: one file per upload');
      case 'LIMIT_FILE_SIZE':
        return new PayloadTooLarge('File too large');
      case 'LIMIT_PART_COUNT':
      case 'LIMIT_FIELD_KEY':
      case 'LIMIT_FIELD_VALUE':
      case 'LIMIT_FIELD_COUNT':
      case 'MISSING_FIELD_NAME':
        return new BadRequest(`multipart body: ${err.message}`);
    }
  }
  // busboy's parse errors (truncated body, bad boundary, bad part header) are the client's.
  const message = (err as Error)?.message ?? '';
  if (/multipart|unexpected end of form|malformed|boundary|part header/i.test(message))
    return new BadRequest('multipart body: malformed or truncated');
  return err;
}

export function uploadFile(ctx: SocialContext): RequestHandler {
  const engine = streamingEngine({
    storage: ctx.storage,
    mintId: () => ctx.stores.files.mintId(),
    limits: (req) => (req as WithLimits)[LIMITS]!,
  });
  return (req: Request, res: Response, next: NextFunction) => {
    const user = req.auth?.user;
    // Nothing is read (or stored) for a caller who may not upload.
    if (!user) return next(new Unauthorized());
    const type = (req.headers['content-type'] ?? '').toLowerCase();
    if (!type.startsWith('multipart/form-data'))
      return next(new BadRequest('body: must be multipart/form-data with the file in the "file" field'));
    limitsFor(ctx, user.id).then(
      (limits) => {
        if (limits.maxBytes === 0) return next(new PayloadTooLarge('Storage quota exceeded'));
        (req as WithLimits)[LIMITS] = limits;
        const mw = multer({
          storage: engine,
          limits: { files: 1, fields: 10, fieldSize: 4096, parts: 11, headerPairs: 50 },
          // Browsers and fetch send `filename="…"` as raw UTF-8 (WHATWG multipart/form-data);
          // busboy's default reads it as Latin-1 and stored `ünï.png` as `Ã¼nÃ¯.png`.
          // `filename*=UTF-8''…` names its charset and is decoded as said either way.
          defParamCharset: 'utf8',
        }).single('file');
        mw(req, res, (err?: unknown) => next(err ? asClientError(err) : undefined));
      },
      (err: unknown) => next(err),
    );
  };
}

export function uploadedFile(req: Request): StoredUpload | undefined {
  return req.file as unknown as StoredUpload | undefined;
}
