/** The form fields of POST /files, checked after the bytes are stored (multer reads them in order). */
import { canonicalTo, type Viewer } from '@agora/common/audience';
import { DESCRIPTION_MAX } from '@agora/common/content';
import { BadRequest } from '@agora/common/errors';
import type { SocialContext } from '../context';
import { assertCanAddress } from '../activities/audience-check';
import { findObject } from '../access/objects';

export interface UploadFields {
  to: string;
  name: string;
  summary: string;
  description: string;
  parentObject: string | null;
}

export function text(body: Record<string, unknown>, field: string, max: number): string {
  const v = body[field];
  if (v === undefined) return '';
  if (typeof v !== 'string') throw new BadRequest(`${field}: must be a string`);
  if (v.length > max) throw new BadRequest(`${field}: at most ${max} characters`);
  return v;
}

/** A display name from the client's file name: the last path segment, printable characters only. */
export function displayName(original: string | undefined): string {
  const last = (original ?? '').split(/[\\/]/).pop() ?? '';
  return (
    last
      // eslint-disable-next-line no-control-regex -- dropping control characters is the point
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .replace(/^\.+/, '')
      .slice(0, 200)
  );
}

export async function readFields(
  ctx: SocialContext,
  viewer: Viewer & { id: string },
  body: Record<string, unknown>,
  originalName: string | undefined,
): Promise<UploadFields> {
  const actorId = viewer.id;
  const parent = text(body, 'parentObject', 300) || null;
  if (parent && parent !== actorId) {
    const found = await findObject(ctx, parent);
    if (!found || found.doc.actorId !== actorId)
      throw new BadRequest('parentObject: must be your own post, page, reply, bookmark, group or user');
  }
  // An unattached file is the owner's alone unless the uploader says otherwise.
  const to = canonicalTo(body.to, 'to', ctx.config.DOMAIN, actorId);
  // The audience rules of a post (Create Post calls the same check): only circles the uploader
  // owns or belongs to, groups they are in, their own id, the server or the public.
  await assertCanAddress(ctx, viewer, to);
  return {
    to,
    name: text(body, 'title', 300) || displayName(originalName),
    summary: text(body, 'summary', 2000),
    description: text(body, 'description', DESCRIPTION_MAX).trim(),
    parentObject: parent,
  };
}
