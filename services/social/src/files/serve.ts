/**
 * Streaming a stored file to the client with the headers caches and players need: a strong
 * ETag (the checksum), conditional GETs, one byte range (206/416), and `Cache-Control: public`
 * only for files anyone may read. Bytes never pass through memory whole.
 */
import type { Request, Response } from 'express';
import type { ObjectStorage } from '@agora/common/storage';
import { streamResponse } from '@agora/common/streams';
import { parseRange } from './range';

export interface Servable {
  key: string;
  mediaType: string;
  size: number;
  etag: string;
  name?: string;
  isPublic: boolean;
}

function asciiName(name: string | undefined): string {
  const clean = (name ?? '').replace(/[^\x20-\x7e]|["\\/]/g, '_').slice(0, 100);
  return clean || 'file';
}

export async function serveObject(req: Request, res: Response, storage: ObjectStorage, f: Servable) {
  const etag = `"${f.etag}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Cache-Control', f.isPublic ? 'public, max-age=86400' : 'private, max-age=300');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // A PDF opened in the browser runs in a sandbox with nothing to reach.
  res.setHeader('Content-Security-Policy', "default-src 'none'; img-src 'self'; media-src 'self'; sandbox");
  res.setHeader('Content-Disposition', `inline; filename="${asciiName(f.name)}"`);
  if (!f.isPublic) res.setHeader('Vary', 'Authorization');
  if (req.headers['if-none-match']?.split(',').some((t) => t.trim() === etag)) {
    res.status(304).end();
    return;
  }
  const ifRange = req.headers['if-range'];
  const range =
    ifRange && ifRange !== etag ? { kind: 'none' as const } : parseRange(req.headers.range, f.size);
  if (range.kind === 'unsatisfiable') {
    res.setHeader('Content-Range', `bytes */${f.size}`);
    res.status(416).json({ error: 'Range not satisfiable' });
    return;
  }
  const opts = range.kind === 'range' ? { range: { start: range.start, end: range.end } } : {};
  const { body } = await storage.get(f.key, opts);
  res.setHeader('Content-Type', f.mediaType);
  if (range.kind === 'range') {
    res.status(206);
    res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${f.size}`);
    res.setHeader('Content-Length', String(range.end - range.start + 1));
  } else {
    res.status(200);
    res.setHeader('Content-Length', String(f.size));
  }
  if (req.method === 'HEAD') {
    body.destroy();
    res.end();
    return;
  }
  // A client that hangs up midway is not an error; a storage failure midway cuts the connection.
  await streamResponse(body, res);
}
