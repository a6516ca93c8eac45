/**
 * Memory during a large upload (issue 12): a 100 MB file is streamed to POST /files through the
 * gateway while the server process's resident set size is sampled from /proc every 20 ms. Peak
 * growth over the RSS just before the upload is the figure; a 10 MB upload in the same run is the
 * baseline, and a 300 MB one (the size limit raised for it) shows whether growth follows the
 * file's size or stays flat.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';

const MB = 1_000_000;

function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN);
  return kb * 1024;
}

/** Streams a `size`-byte PDF-typed body as multipart without holding it (1 MB chunks). */
function send(url: string, token: string, size: number): Promise<{ status: number; body: string }> {
  const boundary = `bench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(1024 * 1024, 0x41);
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/files`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + (size - 9) + tail.length),
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    void (async () => {
      req.write(head);
      let left = size - 9;
      while (left > 0) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        if (!req.write(piece)) await new Promise((r) => req.once('drain', r));
      }
      req.end(tail);
    })();
  });
}

export interface UploadSample {
  sizeMb: number;
  status: number;
  seconds: number;
  rssBeforeMb: number;
  peakGrowthMb: number;
}

export async function benchUpload(
  gateway: string,
  token: string,
  pid: number,
  size: number,
): Promise<UploadSample> {
  if (global.gc) global.gc();
  await new Promise((r) => setTimeout(r, 500));
  const before = rssBytes(pid);
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssBytes(pid));
  }, 20);
  const t = performance.now();
  try {
    const res = await send(gateway, token, size);
    if (res.status !== 201) console.log(`WARNING: upload answered ${res.status} ${res.body.slice(0, 200)}`);
    return {
      sizeMb: size / MB,
      status: res.status,
      seconds: (performance.now() - t) / 1000,
      rssBeforeMb: before / (1024 * 1024),
      peakGrowthMb: (peak - before) / (1024 * 1024),
    };
  } finally {
    clearInterval(timer);
  }
}

export const UPLOAD_SIZES = { big: 100 * MB, baseline: 10 * MB, huge: 300 * MB };
