/**
 * JSON logs (pino). Every line written while handling a request or a message carries its
 * request id and trace id, taken from the async context.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, multistream, type Logger, type DestinationStream } from 'pino';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { trace } from '@opentelemetry/api';

export type { Logger } from 'pino';

interface LogContext {
  requestId?: string;
}
const context = new AsyncLocalStorage<LogContext>();

export function withLogContext<T>(ctx: LogContext, fn: () => T): T {
  return context.run(ctx, fn);
}
export function currentRequestId(): string | undefined {
  return context.getStore()?.requestId;
}

export interface LoggerOptions {
  level: string;
  service: string;
  file?: string | undefined;
  /** Where lines go; defaults to stdout (tests pass a stream to read them). */
  destination?: DestinationStream;
}

export function createLogger(opts: LoggerOptions): Logger {
  const streams: Array<{ stream: DestinationStream | NodeJS.WritableStream }> = [
    { stream: opts.destination ?? process.stdout },
  ];
  if (opts.file) {
    mkdirSync(dirname(opts.file), { recursive: true });
    streams.push({ stream: createWriteStream(opts.file, { flags: 'a' }) });
  }
  return pino(
    {
      level: opts.level,
      base: { service: opts.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin() {
        const out: Record<string, string> = {};
        const rid = context.getStore()?.requestId;
        if (rid) out.requestId = rid;
        const span = trace.getActiveSpan()?.spanContext();
        if (span && span.traceId !== '00000000000000000000000000000000') out.traceId = span.traceId;
        return out;
      },
      redact: {
        paths: ['password', '*.password', 'token', '*.token', 'privateKey', '*.privateKey'],
        censor: '[redacted]',
      },
    },
    streams.length === 1 ? streams[0]!.stream : multistream(streams as never),
  );
}
