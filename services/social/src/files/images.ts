/**
 * Image work with sharp (libvips): every image is decoded and re-encoded, which drops EXIF
 * (location included), XMP and IPTC and applies the EXIF orientation first; a WebP preview of
 * at most PREVIEW_EDGE pixels and the dominant colour come from the same decode. libvips needs
 * the compressed input whole before it decodes, so images have their own, smaller size limit
 * (setting `maxImageUploadSize`); other files stream straight to storage.
 */
import type { Readable } from 'node:stream';
import type { Sharp } from 'sharp';
import { BadRequest } from '@agora/common/errors';
import { flow } from '@agora/common/streams';

export const PREVIEW_EDGE = 400;

// libvips is loaded with the first image, not at start (~19 MB a process may never need).
let sharpModule: Promise<typeof import('sharp')> | undefined;
const loadSharp = async () => (await (sharpModule ??= import('sharp'))).default;
/** Decompression bombs: refuse images above this many pixels (about 8000 × 6000). */
const MAX_PIXELS = 50_000_000;

export interface ProcessedImage {
  data: Buffer;
  width: number;
  height: number;
  preview: { data: Buffer; width: number; height: number };
  color: string;
}

function encoder(mediaType: string, img: Sharp): Sharp {
  switch (mediaType) {
    case 'image/jpeg':
      return img.jpeg({ quality: 90 });
    case 'image/png':
      return img.png();
    case 'image/webp':
      return img.webp({ quality: 90 });
    case 'image/gif':
      return img.gif();
    case 'image/avif':
      return img.avif({ quality: 60 });
    default:
      throw new BadRequest(`file: ${mediaType} is not an image type`);
  }
}

const hex = (n: number) =>
  Math.max(0, Math.min(255, Math.round(n)))
    .toString(16)
    .padStart(2, '0');

/** Decodes `input` once and produces the stripped original, the preview and the colour. */
export async function processImage(input: Readable, mediaType: string): Promise<ProcessedImage> {
  const animated = mediaType === 'image/gif' || mediaType === 'image/webp';
  // The input is guarded and piped by the caller (streams' through): waiting here loses nothing.
  const sharp = await loadSharp();
  const base = sharp({ failOn: 'error', limitInputPixels: MAX_PIXELS, animated });
  const main = encoder(mediaType, base.clone().rotate()).toBuffer({ resolveWithObject: true });
  const preview = base
    .clone()
    .rotate()
    .resize({ width: PREVIEW_EDGE, height: PREVIEW_EDGE, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer({ resolveWithObject: true });
  const stats = base.clone().stats();
  // The clones start from sharp's `finish`, which a failed input never reaches: their promises
  // then never settle, so the feeding pipeline's rejection is what ends the wait.
  const feeding = flow([input, base]);
  try {
    const [, m, p, s] = await Promise.all([feeding, main, preview, stats]);
    // Animated images report the height of all frames stacked; `pageHeight` is one frame.
    const frameHeight = (info: { height: number; pageHeight?: number }) => info.pageHeight ?? info.height;
    return {
      data: m.data,
      width: m.info.width,
      height: frameHeight(m.info),
      preview: { data: p.data, width: p.info.width, height: frameHeight(p.info) },
      color: `#${hex(s.dominant.r)}${hex(s.dominant.g)}${hex(s.dominant.b)}`,
    };
  } catch (err) {
    if (input.errored) throw input.errored;
    // libvips' own message names the decoder; the client learns only that the bytes are bad.
    void err;
    throw new BadRequest(`file: not a valid ${mediaType.split('/')[1]} image`);
  }
}
