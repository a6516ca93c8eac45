/**
 * /files (issue 12): uploads streamed to object storage, downloads behind the parent object's
 * audience (404 for anyone who may not see it), deletion by the owner or an admin.
 */
import { Router, type Request, type Response } from 'express';
import { BadRequest, NotAuthorized, NotFound } from '@agora/common/errors';
import { handler } from '@agora/common/http';
import type { FileRecord } from '@agora/common/db';
import type { SocialContext } from '../../context';
import { viewerOf } from '../../access/viewer';
import { quotaBytes, uploadFile, uploadedFile } from '../../files/upload';
import { readFields } from '../../files/fields';
import { describeFile } from '../../files/describe';
import { removeStored, type StoredUpload } from '../../files/engine';
import { canReadFile, isPublicFile } from '../../files/access';
import { serveObject } from '../../files/serve';
import { presentFile } from '../../files/present';
import { PayloadTooLarge } from '@agora/common/errors';

const FILE_ID = /^file:[a-f0-9]{24}@[a-z0-9.-]+(:\d+)?$/;
const TYPES = new Set(['Image', 'Video', 'Audio', 'Document']);

export default function fileRoutes(ctx: SocialContext): Router {
  const r = Router();
  const publicUrl = ctx.config.publicUrl;

  /** The live file if the viewer may read it; 404 otherwise (invisible and missing look alike). */
  async function readable(req: Request, id: string | undefined): Promise<FileRecord> {
    const file = id && FILE_ID.test(id) ? await ctx.stores.files.findLive(id) : null;
    if (!file || !(await canReadFile(ctx, await viewerOf(ctx, req), file)))
      throw new NotFound('File not found');
    return file;
  }

  async function record(stored: StoredUpload, actorId: string, req: Request) {
    const viewer = await viewerOf(ctx, req);
    const fields = await readFields(
      ctx,
      { ...viewer, id: actorId },
      req.body as Record<string, unknown>,
      req.file?.originalname,
    );
    const quota = await quotaBytes(ctx);
    if (!(await ctx.stores.files.reserve(actorId, stored.size, quota || Number.MAX_SAFE_INTEGER)))
      throw new PayloadTooLarge('Storage quota exceeded');
    try {
      return await ctx.stores.files.create(stored.id, {
        actorId,
        type: stored.kind,
        name: fields.name,
        summary: fields.summary,
        description: fields.description,
        mediaType: stored.mediaType,
        size: stored.size,
        width: stored.width,
        height: stored.height,
        checksum: stored.checksum,
        storageKey: stored.storageKey,
        preview: stored.preview ?? null,
        color: stored.color ?? null,
        to: fields.to,
        parentObject: fields.parentObject,
      });
    } catch (err) {
      await ctx.stores.files.release(actorId, stored.size);
      throw err;
    }
  }

  r.post(
    '/',
    uploadFile(ctx),
    handler(async ({ req, user, set, setStatus }) => {
      const stored = uploadedFile(req);
      if (!stored)
        throw new BadRequest('file: required (multipart/form-data with the file in the "file" field)');
      try {
        const doc = await record(stored, user!.id, req);
        setStatus(201);
        set('ok', true);
        set('file', presentFile(doc, publicUrl));
      } catch (err) {
        // Nothing the client sent is kept when the upload is refused after the bytes landed.
        await removeStored(ctx.storage, stored).catch(() => undefined);
        throw err;
      }
    }),
  );

  r.get(
    '/',
    handler(
      async ({ query, user, set }) => {
        const type = query.type;
        if (type !== undefined && (typeof type !== 'string' || !TYPES.has(type)))
          throw new BadRequest('type: must be Image, Video, Audio or Document');
        const int = (v: unknown, fallback: number) =>
          (typeof v === 'string' ? Number.parseInt(v, 10) : NaN) || fallback;
        const page = Math.max(1, Math.min(10_000, int(query.page, 1)));
        const limit = Math.max(1, Math.min(100, int(query.limit, 20)));
        const { total, items } = await ctx.stores.files.listOwned(user!.id, {
          ...(type ? { type } : {}),
          skip: (page - 1) * limit,
          limit,
        });
        set(
          'files',
          items.map((f) => presentFile(f as FileRecord, publicUrl)),
        );
        set('total', total);
        set('page', page);
        set('limit', limit);
        set('pages', Math.ceil(total / limit));
      },
      { requireAuth: true },
    ),
  );

  r.get(
    '/:id/meta',
    handler(async ({ req, params, set }) => {
      set('file', presentFile(await readable(req, params.id), publicUrl));
    }),
  );

  const serve =
    (variant: 'original' | 'preview') => async (req: Request, res: Response, next: (e?: unknown) => void) => {
      try {
        const file = await readable(req, req.params.id as string | undefined);
        const usePreview = variant === 'preview' || (req.query.size !== undefined && file.preview);
        if (variant === 'preview' && !file.preview) throw new NotFound('This file has no preview');
        const isPublic = await isPublicFile(ctx, file);
        await serveObject(
          req,
          res,
          ctx.storage,
          usePreview && file.preview
            ? {
                key: file.preview.key,
                mediaType: file.preview.mediaType,
                size: file.preview.size,
                etag: `${file.checksum}-preview`,
                name: file.name,
                isPublic,
              }
            : {
                key: file.storageKey,
                mediaType: file.mediaType,
                size: file.size,
                etag: file.checksum,
                name: file.name,
                isPublic,
              },
        );
      } catch (err) {
        next(err);
      }
    };
  r.patch(
    '/:id',
    handler(
      async ({ req, params, user, set }) => {
        const file = await readable(req, params.id);
        set('file', presentFile(await describeFile(ctx, file, user!.id, req.body), publicUrl));
      },
      { requireAuth: true },
    ),
  );

  r.get('/:id/preview', serve('preview'));
  r.get('/:id', serve('original'));

  r.delete(
    '/:id',
    handler(async ({ req, params, user, set }) => {
      // Admins moderate files they cannot see; others learn nothing about files hidden from them.
      const id = params.id;
      const file = user!.isServerAdmin
        ? id && FILE_ID.test(id)
          ? await ctx.stores.files.findLive(id)
          : null
        : await readable(req, id);
      if (!file) throw new NotFound('File not found');
      if (file.actorId !== user!.id && !user!.isServerAdmin)
        throw new NotAuthorized('You can only delete your own files');
      await ctx.stores.files.markDeleted(file.id);
      // The bytes go now; if that fails the GC finds the deleted record and tries again.
      try {
        await removeStored(ctx.storage, file);
        await ctx.stores.files.purge(file.id);
      } catch (err) {
        ctx.logger.warn({ err: (err as Error).message, file: file.id }, 'file bytes left for the GC');
      }
      set('deleted', true);
      set('id', file.id);
    }),
  );
  return r;
}
