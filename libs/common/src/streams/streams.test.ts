/**
 * The stream helper (issue 21): failures reach whoever awaits the pipeline and never become an
 * uncaught 'error' event; a throw inside a stream callback of a handler is answered 500 with the
 * request id for that request only; tar-stream's (streamx) extract is fed to its clean end.
 */
import { createGzip } from 'node:zlib';
import { PassThrough, Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import express from 'express';
import tar from 'tar-stream';
import { createLogger } from '../logger';
import { errorMiddleware, handler, requestId } from '../http';
import { feed, flow, fromIterable, guard, mapChunks, passThrough, through } from './index';

async function* failingAfter(chunks: number, err: Error): AsyncGenerator<Buffer> {
  for (let i = 0; i < chunks; i++) {
    await new Promise((r) => setImmediate(r));
    yield Buffer.alloc(1024, i);
  }
  throw err;
}

const sink = (into: Buffer[] = []) =>
  new Writable({
    write(chunk: Buffer, _enc, cb) {
      into.push(chunk);
      cb();
    },
  });

test('a failing source rejects the flow; no stage is left to throw', async () => {
  const middle = passThrough();
  await expect(
    flow([fromIterable(failingAfter(3, new Error('client went away'))), middle, sink()]),
  ).rejects.toThrow('client went away');
  expect(middle.destroyed).toBe(true);
  // A late error on a guarded stage is dropped; on a bare one it is thrown out of emit().
  expect(() => middle.emit('error', new Error('late'))).not.toThrow();
  expect(() => new PassThrough().emit('error', new Error('late'))).toThrow('late');
});

test('a throw inside mapChunks fails the stream, not the process', async () => {
  const out: Buffer[] = [];
  const boom = mapChunks((chunk) => {
    if (out.length) throw new Error('thrown in a stream callback');
    return chunk;
  });
  await expect(flow([[Buffer.from('a'), Buffer.from('b')], boom, sink(out)])).rejects.toThrow(
    'thrown in a stream callback',
  );
  const flushing = mapChunks(
    (c) => c,
    () => {
      throw new Error('thrown in flush');
    },
  );
  await expect(flow([[Buffer.from('a')], flushing, sink()])).rejects.toThrow('thrown in flush');
});

test('through hands the last stage to its reader, failures included', async () => {
  const read = async (s: AsyncIterable<Buffer>) => {
    let n = 0;
    for await (const c of s) n += c.length;
    return n;
  };
  expect(
    await read(
      through(
        [Buffer.alloc(10), Buffer.alloc(5)],
        mapChunks((c) => c),
      ),
    ),
  ).toBe(15);
  await expect(
    read(
      through(
        failingAfter(2, new Error('disk gone')),
        mapChunks((c) => c),
      ),
    ),
  ).rejects.toThrow('disk gone');
});

async function archive(files: Record<string, Buffer>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, data] of Object.entries(files)) pack.entry({ name, size: data.length }, data);
  pack.finalize();
  const out: Buffer[] = [];
  await flow([pack as unknown as NodeJS.ReadableStream, createGzip(), sink(out)]);
  return Buffer.concat(out);
}

async function entriesOf(gz: Buffer, stopAfter = Infinity): Promise<string[]> {
  const { createGunzip } = await import('node:zlib');
  const extract = guard(tar.extract());
  const feeding = feed(through([gz], createGunzip()), extract);
  const names: string[] = [];
  try {
    for await (const entry of extract) {
      names.push(entry.header.name);
      entry.resume();
      if (names.length >= stopAfter) break;
    }
    await feeding;
  } finally {
    await feeding.catch(() => undefined);
  }
  return names;
}

test('feed runs a streamx extract to its clean end, and fails it on a truncated input', async () => {
  const files = Object.fromEntries(
    Array.from({ length: 20 }, (_, i) => [`f${i}`, Buffer.alloc(50_000 + i, i)] as const),
  );
  const gz = await archive(files);
  expect(await entriesOf(gz)).toEqual(Object.keys(files));
  await expect(entriesOf(gz.subarray(0, gz.length >> 1))).rejects.toThrow(/unexpected end of file/);
  // A reader that stops early ends the feed instead of leaving it waiting for a drain.
  await expect(entriesOf(gz, 2)).rejects.toThrow('the reader stopped before the end of the stream');
});

test('a throw in a stream callback of a handler: 500 { error, requestId } for that request only', async () => {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'info',
    service: 't',
    destination: { write: (l: string) => void lines.push(l) },
  });
  const app = express();
  app.use(requestId);
  app.get(
    '/stream',
    handler(async ({ res }) => {
      res.setHeader('content-type', 'text/plain');
      const fail = mapChunks(() => {
        throw new Error('internal detail from a stream callback');
      });
      await flow([[Buffer.from('x')], fail, passThrough()]);
    }),
  );
  app.get(
    '/ok',
    handler(({ set }) => set('ok', true)),
  );
  app.use(errorMiddleware(logger));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const res = await fetch(`${base}/stream`);
    const body = (await res.json()) as { error: string; requestId: string };
    expect(res.status).toBe(500);
    expect(body).toEqual({ error: 'Internal server error', requestId: res.headers.get('x-request-id') });
    const logged = lines.map(
      (l) => JSON.parse(l) as { msg: string; requestId?: string; err?: { message: string } },
    );
    const failed = logged.find((l) => l.msg === 'request failed');
    expect(failed?.requestId).toBe(body.requestId);
    expect(failed?.err?.message).toBe('internal detail from a stream callback');
    expect((await fetch(`${base}/ok`)).status).toBe(200);
  } finally {
    server.close();
  }
});
