/**
 * HTTP written by hand over `node:net`, for the fault tier: a client that sends part of a body
 * slowly and then vanishes, or reads a few bytes of an answer and hangs up. fetch and http.request
 * cannot do either on purpose (they finish or abort the request their own way).
 */
import net from 'node:net';

export interface AbortedRequest {
  port: number;
  method?: string;
  path: string;
  headers: Record<string, string>;
  /** Sent right after the headers (e.g. a multipart part header and a file's magic bytes). */
  head: Buffer;
  /** Then `chunks` chunks of `chunkBytes` bytes (filled with `fill`), `delayMs` apart. */
  chunks: number;
  chunkBytes: number;
  delayMs: number;
  fill?: number;
  /**
   * `cut` (the default): announce 10 MB more than is sent, then hang up. `complete`: announce
   * exactly what is sent and wait (up to 10 s) for the answer before hanging up.
   */
  ending?: 'cut' | 'complete';
}

/**
 * Sends the request line, the headers, `head` and the chunks slowly, then destroys the socket
 * (without finishing the body unless `ending` is `complete`). Resolves with whatever the server
 * answered before that; never rejects on a socket error.
 */
export async function abortedRequest(r: AbortedRequest): Promise<string> {
  const socket = net.connect(r.port, '127.0.0.1');
  let answer = '';
  socket.on('data', (b: Buffer) => (answer += b.toString('latin1')));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const sent = r.head.length + r.chunks * r.chunkBytes;
  const length = r.ending === 'complete' ? sent : sent + 10 * 1024 * 1024;
  const headers = { host: `127.0.0.1:${r.port}`, ...r.headers, 'content-length': String(length) };
  socket.write(
    `${r.method ?? 'POST'} ${r.path} HTTP/1.1\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`,
  );
  socket.write(r.head);
  const chunk = Buffer.alloc(r.chunkBytes, r.fill ?? 0);
  for (let i = 0; i < r.chunks && !socket.destroyed; i++) {
    socket.write(chunk);
    await sleep(r.delayMs);
  }
  if (r.ending === 'complete') {
    const deadline = Date.now() + 10_000;
    while (!answer.includes('\r\n\r\n') && !socket.destroyed && Date.now() < deadline) await sleep(20);
  }
  socket.destroy();
  return answer;
}

/**
 * Sends a GET and hangs up once `readBytes` bytes of the answer (headers included) arrived, or
 * after `timeoutMs`. Resolves with the status line and the bytes read.
 */
export async function abortedDownload(r: {
  port: number;
  path: string;
  headers?: Record<string, string>;
  readBytes: number;
  timeoutMs?: number;
}): Promise<{ statusLine: string; received: number }> {
  const socket = net.connect(r.port, '127.0.0.1');
  socket.on('error', () => undefined);
  let received = Buffer.alloc(0);
  const headers = { host: `127.0.0.1:${r.port}`, ...r.headers };
  socket.write(
    `GET ${r.path} HTTP/1.1\r\n${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`,
  );
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, r.timeoutMs ?? 10_000);
    socket.on('data', (b: Buffer) => {
      received = Buffer.concat([received, b]);
      if (received.length >= r.readBytes) done();
    });
    socket.on('close', done);
  });
  socket.destroy();
  const text = received.toString('latin1');
  return { statusLine: text.slice(0, text.indexOf('\r\n')), received: received.length };
}

/** The opening of a multipart body with one file part, and its content type. */
export function multipartOpening(
  field: string,
  filename: string,
  contentType: string,
): { contentType: string; opening: Buffer } {
  const boundary = 'agoraFaultBoundary';
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    opening: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
        `Content-Type: ${contentType}\r\n\r\n`,
    ),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
