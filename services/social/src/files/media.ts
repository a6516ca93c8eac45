/**
 * A post's `media` (ADR 0021): its attached files' address, kind, size and description, copied
 * onto the post when it is written so that timelines show alt text without reading the files;
 * a description changed later (PATCH /files/:id) is copied again onto the post it belongs to.
 */
import type { MediaItem } from '@agora/common/content';
import type { FileRecord } from '@agora/common/db';
import type { SocialContext } from '../context';

export function mediaItemOf(file: FileRecord): MediaItem {
  return {
    id: file.id,
    url: file.url,
    mediaType: file.mediaType,
    description: file.description ?? '',
    ...(file.width ? { width: file.width } : {}),
    ...(file.height ? { height: file.height } : {}),
  };
}

/** The media of these (already attached, live) files, in the order given. */
export async function mediaOfFiles(ctx: SocialContext, fileIds: string[]): Promise<MediaItem[]> {
  const files = await Promise.all(fileIds.map((id) => ctx.stores.files.findLive(id)));
  return files.filter((f): f is FileRecord => !!f).map(mediaItemOf);
}

/**
 * The post a described file is attached to gets its media again, read from every one of its
 * files: two descriptions changed at once both end up on the post, whichever write lands last.
 * Returns the post changed, if any.
 */
export async function refreshPostMedia(
  ctx: SocialContext,
  file: FileRecord,
): Promise<{ id: string; actorId: string } | undefined> {
  const parent = file.parentObject;
  if (!parent?.startsWith('post:')) return undefined;
  const post = await ctx.stores.posts.liveById(parent);
  if (!post?.media?.some((m) => m.id === file.id)) return undefined;
  await ctx.stores.posts.update(post.id, { media: await mediaOfFiles(ctx, post.attachments) });
  return { id: post.id, actorId: post.actorId };
}
