/**
 * Response compression at the edge: brotli or gzip by `Accept-Encoding` (the `compression`
 * package negotiates; brotli is preferred when the client accepts both), for bodies of 1 KB or
 * more whose type is compressible (JSON, HTML, JavaScript, CSS, SVG: the mime database's flag).
 * Never compressed: media and archives that are compressed already (JPEG, PNG, WebP, video,
 * gzip: not compressible by type), partial content (a `Range` answer's bytes must be the stored
 * bytes), event streams (they must reach the client as they are written, not when a compressor's
 * buffer fills), and anything marked `Cache-Control: no-transform`.
 */
import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';
import { constants } from 'node:zlib';

export function shouldCompress(req: Request, res: Response): boolean {
  if (res.statusCode === 206 || res.getHeader('Content-Range')) return false;
  const type = String(res.getHeader('Content-Type') ?? '');
  if (type.startsWith('text/event-stream')) return false;
  if (/\bno-transform\b/i.test(String(res.getHeader('Cache-Control') ?? ''))) return false;
  return compression.filter(req, res);
}

export function compress(): RequestHandler {
  return compression({
    filter: shouldCompress,
    threshold: 1024,
    // Quality 4: most of brotli's gain at a fraction of its default (11) CPU cost per response.
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}
