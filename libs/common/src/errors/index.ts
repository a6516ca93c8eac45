/**
 * One error model (style.md §5). An AppError carries an HTTP status and a message that is safe
 * to show to clients; anything else is an internal error and is shown as a generic 500 with a
 * request id. Names match the lookup mapping of spec 1.8 (BadRequest, NotAuthorized, NotFound).
 */
export class AppError extends Error {
  readonly status: number;
  /** Extra fields merged into the `{ error }` body (e.g. `blocked` keys). */
  readonly extra: Record<string, unknown> | undefined;
  constructor(
    status: number,
    message: string,
    options?: { cause?: unknown; extra?: Record<string, unknown> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.extra = options?.extra;
  }
}

export class BadRequest extends AppError {
  override readonly name = 'BadRequest';
  constructor(message = 'Bad request', options?: { cause?: unknown; extra?: Record<string, unknown> }) {
    super(400, message, options);
  }
}
export class Unauthorized extends AppError {
  override readonly name = 'Unauthorized';
  constructor(message = 'Unauthorized') {
    super(401, message);
  }
}
export class NotAuthorized extends AppError {
  override readonly name = 'NotAuthorized';
  constructor(message = 'Forbidden', options?: { extra?: Record<string, unknown> }) {
    super(403, message, options);
  }
}
export class NotFound extends AppError {
  override readonly name = 'NotFound';
  constructor(message = 'Not found') {
    super(404, message);
  }
}
export class Conflict extends AppError {
  override readonly name = 'Conflict';
  constructor(message = 'Conflict') {
    super(409, message);
  }
}
/** A well-formed request the server will not process as sent (an Idempotency-Key reused with another body). */
export class UnprocessableEntity extends AppError {
  override readonly name = 'UnprocessableEntity';
  constructor(message = 'Unprocessable entity') {
    super(422, message);
  }
}
export class Gone extends AppError {
  override readonly name = 'Gone';
  constructor(message = 'Gone', options?: { extra?: Record<string, unknown> }) {
    super(410, message, options);
  }
}
export class PayloadTooLarge extends AppError {
  override readonly name = 'PayloadTooLarge';
  constructor(message = 'Request body too large') {
    super(413, message);
  }
}
export class TooManyRequests extends AppError {
  override readonly name = 'TooManyRequests';
  constructor(message = 'Too many requests') {
    super(429, message);
  }
}
export class ServiceUnavailable extends AppError {
  override readonly name = 'ServiceUnavailable';
  constructor(message = 'Service unavailable', options?: { cause?: unknown }) {
    super(503, message, options);
  }
}
export class UpstreamError extends AppError {
  override readonly name = 'UpstreamError';
  constructor(status: number, message: string) {
    super(status >= 400 && status < 600 ? status : 502, message);
  }
}

/** Thrown at start for a bad configuration value; the message names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Maps any thrown value to a status and a safe client message. */
export function toHttpError(err: unknown): {
  status: number;
  message: string;
  extra?: Record<string, unknown>;
  internal: boolean;
} {
  if (err instanceof AppError) {
    return {
      status: err.status,
      message: err.message,
      ...(err.extra ? { extra: err.extra } : {}),
      internal: err.status >= 500,
    };
  }
  const e = err as { name?: string; status?: unknown; statusCode?: unknown; type?: string; message?: string };
  // body-parser errors carry a status and a type; their messages are safe.
  const status =
    typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : undefined;
  if (status === 413 || e?.type === 'entity.too.large')
    return { status: 413, message: 'Request body too large', internal: false };
  if (e?.type === 'entity.parse.failed')
    return { status: 400, message: 'Invalid JSON body', internal: false };
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported')
    return { status: 415, message: 'Unsupported body encoding', internal: false };
  if (status !== undefined && status >= 400 && status < 500)
    return { status, message: e.message ?? 'Bad request', internal: false };
  // Mongoose validation and cast errors come from client input.
  if (e?.name === 'ValidationError' || e?.name === 'CastError')
    return { status: 400, message: e.message ?? 'Invalid input', internal: false };
  if (e?.name === 'MongoServerSelectionError' || e?.name === 'MongoNotConnectedError')
    return { status: 503, message: 'Database unavailable', internal: true };
  return { status: 500, message: 'Internal server error', internal: true };
}
