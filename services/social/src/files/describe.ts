/**
 * PATCH /files/:id (ADR 0021): the owner sets a file's description (its alt text), which the post
 * it is attached to shows from then on. Only `description` may change; anything else is refused.
 * The post's change is recorded as its author's Update with a `post.updated` event (servers
 * holding a copy get the new description, as after any edit).
 */
import { DESCRIPTION_MAX } from '@agora/common/content';
import { BadRequest, NotAuthorized, NotFound } from '@agora/common/errors';
import type { FileRecord } from '@agora/common/db';
import type { SocialContext } from '../context';
import { text } from './fields';
import { refreshPostMedia } from './media';
import { recordMediaUpdate } from './media-update';

export async function describeFile(
  ctx: SocialContext,
  file: FileRecord,
  userId: string,
  body: unknown,
): Promise<FileRecord> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new BadRequest('body: must be a JSON object');
  const fields = body as Record<string, unknown>;
  const other = Object.keys(fields).find((k) => k !== 'description');
  if (other) throw new BadRequest(`${other.slice(0, 40)}: only description can be changed`);
  if (fields.description === undefined) throw new BadRequest('description: is required');
  const description = text(fields, 'description', DESCRIPTION_MAX).trim();
  if (file.actorId !== userId) throw new NotAuthorized('You can only describe your own files');
  const after = await ctx.stores.files.describe(file.id, description);
  if (!after) throw new NotFound('File not found');
  const post = await refreshPostMedia(ctx, after);
  if (post) await recordMediaUpdate(ctx, post);
  return after;
}
