/**
 * Objects reference files by id (post attachments and images, profile icon and header). Saying
 * so attaches the file to the object, whose audience it then follows (files/access.ts). Only
 * the owner's own live files that are unattached (or already on this object) can be attached.
 */
import { BadRequest } from '@agora/common/errors';
import type { SocialContext } from '../context';

export const FILE_REF = /^file:[a-f0-9]{24}@[a-z0-9.-]+(:\d+)?$/;

/** The file ids among `values` (other values, such as http URLs, are not ours to check). */
export function fileIdsIn(values: Array<string | null | undefined>): string[] {
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v.startsWith('file:')))];
}

export async function attachFiles(
  ctx: SocialContext,
  actorId: string,
  fileIds: string[],
  parentId: string,
  field: string,
): Promise<void> {
  if (!fileIds.length) return;
  const malformed = fileIds.find((id) => !FILE_REF.test(id));
  if (malformed) throw new BadRequest(`${field}: ${malformed.slice(0, 80)} is not a file id`);
  const refused = await ctx.stores.files.attach(actorId, fileIds, parentId);
  if (refused.length)
    throw new BadRequest(`${field}: ${refused[0]} is not one of your files, or is attached elsewhere`);
}
