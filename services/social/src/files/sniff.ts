/**
 * Upload types from the bytes (issue 12): the client's file name and Content-Type are never
 * trusted. Only the formats on the built-in list are recognised; anything else, SVG included
 * (scriptable, and we do not sanitise it), is refused. `SNIFF_BYTES` of the head are enough for
 * every signature here.
 */
export type FileKind = 'Image' | 'Video' | 'Audio' | 'Document';

export interface Sniffed {
  mediaType: string;
  kind: FileKind;
  ext: string;
}

export const SNIFF_BYTES = 64;

const ascii = (b: Buffer, at: number, s: string) =>
  b.length >= at + s.length && b.toString('latin1', at, at + s.length) === s;
const bytes = (b: Buffer, at: number, sig: number[]) =>
  b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);

/** A Map: the brand is read from the uploaded bytes (docs/security.md, lookups keyed by input). */
const ISO_BRANDS = new Map<string, Sniffed>([
  ['avif', { mediaType: 'image/avif', kind: 'Image', ext: 'avif' }],
  ['avis', { mediaType: 'image/avif', kind: 'Image', ext: 'avif' }],
  ['qt', { mediaType: 'video/quicktime', kind: 'Video', ext: 'mov' }],
  ['M4A ', { mediaType: 'audio/mp4', kind: 'Audio', ext: 'm4a' }],
]);
const MP4: Sniffed = { mediaType: 'video/mp4', kind: 'Video', ext: 'mp4' };

/** The type of a file from its first bytes, or null when it is not one we accept. */
export function sniff(head: Buffer): Sniffed | null {
  if (bytes(head, 0, [0xff, 0xd8, 0xff])) return { mediaType: 'image/jpeg', kind: 'Image', ext: 'jpg' };
  if (bytes(head, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { mediaType: 'image/png', kind: 'Image', ext: 'png' };
  if (ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a'))
    return { mediaType: 'image/gif', kind: 'Image', ext: 'gif' };
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP'))
    return { mediaType: 'image/webp', kind: 'Image', ext: 'webp' };
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE'))
    return { mediaType: 'audio/wav', kind: 'Audio', ext: 'wav' };
  if (ascii(head, 4, 'ftyp')) {
    const brand = head.toString('latin1', 8, 12);
    return ISO_BRANDS.get(brand) ?? ISO_BRANDS.get(brand.trim()) ?? MP4;
  }
  if (bytes(head, 0, [0x1a, 0x45, 0xdf, 0xa3]))
    // Matroska and WebM share the EBML header; browsers play WebM, so only that is named.
    return head.includes('webm', 0, 'latin1')
      ? { mediaType: 'video/webm', kind: 'Video', ext: 'webm' }
      : null;
  if (ascii(head, 0, 'OggS')) return { mediaType: 'audio/ogg', kind: 'Audio', ext: 'ogg' };
  if (ascii(head, 0, 'fLaC')) return { mediaType: 'audio/flac', kind: 'Audio', ext: 'flac' };
  if (ascii(head, 0, 'ID3') || (head[0] === 0xff && ((head[1] ?? 0) & 0xe6) === 0xe2))
    return { mediaType: 'audio/mpeg', kind: 'Audio', ext: 'mp3' };
  if (ascii(head, 0, '%PDF-')) return { mediaType: 'application/pdf', kind: 'Document', ext: 'pdf' };
  return null;
}

/**
 * Whether the `allowedUploadTypes` setting admits a type: entries are exact media types or a
 * family (`image`, `video`, `audio`). Anything sniff() does not know never gets this far.
 */
export function allowedBy(setting: unknown, mediaType: string): boolean {
  if (!Array.isArray(setting)) return true;
  const family = mediaType.split('/')[0];
  return setting.some((entry) => entry === mediaType || entry === family);
}
