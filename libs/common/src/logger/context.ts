/**
 * The request id of the async context, in a module of its own: the fatal handlers
 * (`../fatal.ts`) read it and are installed before telemetry starts, so they must not load pino
 * (its instrumentation patches it at load).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface LogContext {
  requestId?: string;
}
export const logContext = new AsyncLocalStorage<LogContext>();

export function withLogContext<T>(ctx: LogContext, fn: () => T): T {
  return logContext.run(ctx, fn);
}
export function currentRequestId(): string | undefined {
  return logContext.getStore()?.requestId;
}
