import { ServiceUnavailable } from '../errors';

interface SdkError {
  name?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

export function errorName(err: unknown): string | undefined {
  return (err as SdkError | undefined)?.name;
}

export function httpStatus(err: unknown): number | undefined {
  return (err as SdkError | undefined)?.$metadata?.httpStatusCode;
}

/**
 * After the SDK's own retries, a connection failure or a 5xx means the store is down, which
 * callers should report as 503 rather than as a bug. Everything else passes through unchanged.
 */
export function toStorageError(err: unknown): unknown {
  const meta = (err as SdkError | undefined)?.$metadata;
  if (meta === undefined) return err;
  if (meta.httpStatusCode === undefined || meta.httpStatusCode >= 500) {
    return new ServiceUnavailable('Object storage unavailable', { cause: err });
  }
  return err;
}

export function describeError(err: unknown): string {
  const e = err as SdkError | undefined;
  const status = e?.$metadata?.httpStatusCode;
  return [e?.name ?? 'Error', status === undefined ? undefined : `HTTP ${status}`, e?.message]
    .filter((s) => s !== undefined && s !== '')
    .join(': ');
}

export function stripQuotes(etag: string | undefined): string | undefined {
  return etag === undefined ? undefined : etag.replace(/^"|"$/g, '');
}
