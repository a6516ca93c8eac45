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

/** The answers in `raw` (status and body; chunked bodies joined), and any bytes left over. */
export function answersIn(raw: string): { answers: { status: string; body: string }[]; rest: string } {
  const answers: { status: string; body: string }[] = [];
  let rest = raw;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (!rest.startsWith('HTTP/1.1 ') || end < 0) return { answers, rest };
    const head = rest.slice(0, end).toLowerCase();
    let body = rest.slice(end + 4);
    const length = /\r\ncontent-length: (\d+)/.exec(head);
    if (length) {
      if (body.length < Number(length[1])) return { answers, rest };
      rest = body.slice(Number(length[1]));
      body = body.slice(0, Number(length[1]));
    } else {
      const last = body.indexOf('\r\n0\r\n\r\n');
      if (last < 0) return { answers, rest };
      rest = body.slice(last + 7);
      body = body.slice(0, last + 2).replace(/(^|\r\n)[0-9a-f]+\r\n/g, '');
    }
    answers.push({ status: head.slice(9, 12), body: body.replace(/\r\n$/, '') });
  }
}

/**
 * GETs one after another on one kept-alive connection (`between` runs before each but the first),
 * each sent once the one before is answered; every byte the server wrote, until 300 ms after the
 * last answer, for `answersIn` to check that nothing else came.
 */
export async function onOneConnection(
  port: number,
  paths: string[],
  between: () => Promise<void>,
  headers: Record<string, string> = {},
): Promise<string> {
  const socket = net.connect(port, '127.0.0.1');
  let got = '';
  socket.on('data', (b: Buffer) => (got += b.toString('latin1')));
  socket.on('error', () => undefined);
  for (const [i, path] of paths.entries()) {
    if (i) await between();
    const lines = Object.entries({ host: `127.0.0.1:${port}`, ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
    socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
    for (let waited = 0; answersIn(got).answers.length <= i; waited += 20) {
      if (waited > 10_000 || socket.destroyed)
        throw new Error(`no answer to ${path}: ${JSON.stringify(got)}`);
      await sleep(20);
    }
  }
  await sleep(300);
  socket.destroy();
  return got;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
