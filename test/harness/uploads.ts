/** Multipart uploads for e2e tests: a well-formed one through fetch, and raw bodies for bad input. */
import http from 'node:http';
import type { JsonResponse } from './standalone';

export interface UploadInput {
  data: Buffer;
  filename?: string;
  contentType?: string;
  field?: string;
  fields?: Record<string, string>;
  /** `/files` unless given (the reference client posts to `/files/`). */
  path?: string;
}

export async function upload(
  base: string,
  token: string | undefined,
  input: UploadInput,
): Promise<JsonResponse> {
  const form = new FormData();
  for (const [k, v] of Object.entries(input.fields ?? {})) form.append(k, v);
  form.append(
    input.field ?? 'file',
    new Blob([new Uint8Array(input.data)], { type: input.contentType ?? 'application/octet-stream' }),
    input.filename ?? 'upload.bin',
  );
  const res = await fetch(`${base}${input.path ?? '/files'}`, {
    method: 'POST',
    body: form,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

/** Sends the start of a multipart body and ends the request before the closing boundary. */
export function truncatedUpload(
  base: string,
  token: string,
  data: Buffer,
): Promise<{ status: number; body: string }> {
  const boundary = 'agoraTruncated';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/files`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(Buffer.concat([head, data]));
  });
}

/** GET returning the raw bytes and headers (files are not JSON). */
export async function getBytes(
  base: string,
  path: string,
  opts: { token?: string; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${base}${path}`, {
    headers: { ...(opts.headers ?? {}), ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
