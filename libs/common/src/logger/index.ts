/**
 * JSON logs (pino). Every line written while handling a request or a message carries its
 * request id and trace id, taken from the async context.
 */
import { pino, multistream, type Logger, type DestinationStream } from 'pino';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { trace } from '@opentelemetry/api';
import { guard } from '../streams';
import { logContext as context } from './context';

export type { Logger } from 'pino';
export { currentRequestId, withLogContext } from './context';

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
    // Guarded: a log file that becomes unwritable (disk full) must not stop the process.
    streams.push({ stream: guard(createWriteStream(opts.file, { flags: 'a' })) });
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
