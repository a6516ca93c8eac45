/**
 * The one HTTP client every screen uses: JSON in and out, the session token as a Bearer header,
 * and the server's `{ error }` surfaced as an ApiError so a refused action can say why.
 */
import { getToken, setToken } from './session';
import { humanize, networkMessage, timeoutMessage, waitText } from './errors';
import { t } from '../i18n/use-t';
import { reportReachable } from './connectivity';

/**
 * How long any request may take before the screen says so and offers a retry: the gateway's own
 * proxy timeout, after which it would answer 504 anyway.
 */
export const REQUEST_TIMEOUT_MS = 30_000;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> = {},
    /** For a 429: seconds until the server accepts the request again (its Retry-After). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}

function headers(json: boolean): Headers {
  const h = new Headers({ accept: 'application/json' });
  if (json) h.set('content-type', 'application/json');
  const token = getToken();
  if (token) h.set('authorization', `Bearer ${token}`);
  return h;
}

async function parse<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: Record<string, unknown> = {};
  if (text) {
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = { error: text.slice(0, 200) };
    }
  }
  if (!res.ok) {
    // A token the server no longer accepts (expired, user deleted) ends the session.
    if (res.status === 401 && getToken() && !res.url.endsWith('/auth/login')) setToken(null);
    const raw = typeof body.error === 'string' ? body.error : `${res.status} ${res.statusText}`;
    if (res.status === 429) {
      const wait = Number(res.headers.get('retry-after'));
      const seconds = Number.isFinite(wait) && wait > 0 ? Math.ceil(wait) : undefined;
      const message = seconds ? t('errors.tooManyIn', { wait: waitText(seconds) }) : t('errors.tooMany');
      throw new ApiError(429, message, body, seconds);
    }
    throw new ApiError(res.status, humanize(raw), body);
  }
  return body as T;
}

/**
 * fetch with the request timeout: a request that fails to reach the server or never answers
 * becomes an ApiError with status 0 (and tells the offline banner), never a screen that waits.
 */
export async function send(input: string, init: RequestInit = {}): Promise<Response> {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  try {
    const res = await fetch(input, { ...init, signal });
    reportReachable(true);
    return res;
  } catch (err) {
    if (init.signal?.aborted) throw err;
    reportReachable(false);
    throw new ApiError(0, timeout.aborted ? timeoutMessage() : networkMessage());
  }
}

export async function request<T>(method: string, path: string, body?: unknown, query?: Query): Promise<T> {
  const res = await send(withQuery(path, query), {
    method,
    headers: headers(body !== undefined),
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return parse<T>(res);
}

/** Calls on paths built by `pathOf` (routes.ts): `api.get<Item>(pathOf('circle', { id }))`. */
export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', path, undefined, query),
  post: <T>(path: string, body: unknown = {}, query?: Query) => request<T>('POST', path, body, query),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  del: <T>(path: string, query?: Query) => request<T>('DELETE', path, undefined, query),
};

/**
 * The bytes of a file the caller may read, as an object URL for `<img src>`. Non-public files
 * need the Authorization header (ADR 0009), which a plain `<img src>` cannot send.
 */
export async function fetchObjectUrl(path: string): Promise<string> {
  const res = await send(path, { headers: headers(false) });
  if (!res.ok) throw new ApiError(res.status, `${res.status} ${res.statusText}`);
  return URL.createObjectURL(await res.blob());
}

/**
 * A multipart upload with progress (fetch cannot report upload progress; XMLHttpRequest can).
 * Resolves with the parsed JSON body; rejects with an ApiError carrying the server's message.
 */
export function upload<T>(path: string, form: FormData, onProgress?: (pct: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('accept', 'application/json');
    const token = getToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && onProgress) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.timeout = 5 * 60_000;
    xhr.onerror = () => {
      reportReachable(false);
      reject(new ApiError(0, t('errors.uploadFailed', { reason: networkMessage() })));
    };
    xhr.ontimeout = () => reject(new ApiError(0, t('errors.uploadFailed', { reason: timeoutMessage() })));
    xhr.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText || '{}') as Record<string, unknown>;
      } catch {
        body = {};
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else
        reject(
          new ApiError(
            xhr.status,
            typeof body.error === 'string'
              ? humanize(body.error)
              : t('errors.uploadStatus', { status: xhr.status }),
            body,
          ),
        );
    };
    xhr.send(form);
  });
}

export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return t('errors.generic');
}
