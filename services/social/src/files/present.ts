/** A file record as clients see it: no storage keys; URLs for the bytes and the preview. */
import type { FileRecord } from '@agora/common/db';

export function presentFile(doc: Partial<FileRecord> & { id: string }, publicUrl: string) {
  const url = `${publicUrl}/files/${doc.id}`;
  const preview = doc.preview
    ? {
        url: `${url}/preview`,
        mediaType: doc.preview.mediaType,
        width: doc.preview.width,
        height: doc.preview.height,
        size: doc.preview.size,
      }
    : null;
  return {
    id: doc.id,
    objectType: 'File',
    type: doc.type,
    url,
    name: doc.name ?? '',
    summary: doc.summary ?? '',
    description: doc.description ?? '',
    mediaType: doc.mediaType,
    size: doc.size,
    width: doc.width ?? null,
    height: doc.height ?? null,
    checksum: doc.checksum,
    color: doc.color ?? null,
    preview,
    // The reference client reads thumbnails by size.
    thumbnails: preview ? { [String(Math.max(preview.width ?? 0, preview.height ?? 0))]: preview.url } : null,
    to: doc.to,
    parentObject: doc.parentObject ?? null,
    actorId: doc.actorId,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}
