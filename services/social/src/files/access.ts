/**
 * Who may read a file (decisions.md §5, issue 12): once attached, exactly who may read its
 * parent object (a post's circle, a reply's thread root, a bookmark's folder chain, a user's
 * profile audience); before that, the file's own `to`, and only while its uploader's account is
 * live. The owner always may. A missing or deleted parent closes the file to everyone but its
 * owner.
 */
import { ANONYMOUS, canSee, type Viewer } from '@agora/common/audience';
import type { FileRecord } from '@agora/common/db';
import type { SocialContext } from '../context';
import { readableObject } from '../access/objects';

async function parentVisible(ctx: SocialContext, viewer: Viewer, parent: string): Promise<boolean> {
  if (parent.startsWith('@')) {
    const user = await ctx.stores.users.findActiveById(parent);
    return user !== null && canSee({ to: user.to ?? '@public', actorId: user.id }, viewer, ctx.config.DOMAIN);
  }
  try {
    await readableObject(ctx, viewer, parent);
    return true;
  } catch {
    return false;
  }
}

export async function canReadFile(
  ctx: SocialContext,
  viewer: Viewer,
  file: Pick<FileRecord, 'actorId' | 'to' | 'parentObject'>,
): Promise<boolean> {
  if (viewer.id && viewer.id === file.actorId) return true;
  if (file.parentObject) return parentVisible(ctx, viewer, file.parentObject);
  if (!canSee({ to: file.to, actorId: file.actorId }, viewer, ctx.config.DOMAIN)) return false;
  // A deleted or deactivated account's uploads are nobody's to read (an admin's soft delete does
  // not withdraw content; account deletion by its owner also marks the files deleted).
  return (await ctx.stores.users.findActiveById(file.actorId)) !== null;
}

/** Whether anyone at all may read it (decides `Cache-Control: public`). */
export function isPublicFile(ctx: SocialContext, file: Pick<FileRecord, 'actorId' | 'to' | 'parentObject'>) {
  return canReadFile(ctx, ANONYMOUS, file);
}
