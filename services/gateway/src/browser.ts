/**
 * Browser navigation of spec 1.7 and 5.3.4: a GET that accepts text/html (and neither
 * application/activity+json nor application/ld+json) on a first path segment the app owns gets
 * the single-page app's index.html (built into web/dist) instead of JSON, unless the query has
 * `rss`; `/admin` without an Authorization header from a browser likewise. The page carries a
 * strict Content-Security-Policy; the hashed build assets are cached for good. Any other browser
 * navigation that the API answers with 404 gets the same page (status 404), so the app shows its
 * Not found screen instead of `{"error":"Not found"}`; API clients keep their JSON 404.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Request, type RequestHandler, type Response } from 'express';

// Spec 1.7's segments, plus the pages that e-mail links open (verify-email, reset-password) and
// the app's own screens (docs/web.md): each is a deep link that must open the app on reload.
export const SPA_SEGMENTS = new Set([
  'circles',
  'groups',
  'users',
  'posts',
  'pages',
  'profile',
  'search',
  'notifications',
  'servers',
  'discover',
  'admin',
  'verify-email',
  'reset-password',
  'login',
  'signup',
  'forgot-password',
  'settings',
  'bookmarks',
]);

/**
 * The app's policy: its own scripts and styles only (the build has no inline code), API calls
 * to this origin, images also from https (remote avatars) and data/blob URLs (previews of files
 * being uploaded). Nothing may frame it.
 */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob: https:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function wantsHtml(req: Request): boolean {
  const accept = String(req.headers.accept ?? '').toLowerCase();
  return (
    accept.includes('text/html') &&
    !accept.includes('application/activity+json') &&
    !accept.includes('application/ld+json')
  );
}

export function isBrowserNavigation(req: Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (req.query && Object.prototype.hasOwnProperty.call(req.query, 'rss')) return false;
  const first = req.path.split('/')[1] ?? '';
  if (!SPA_SEGMENTS.has(first) || !wantsHtml(req)) return false;
  // Admin pages are the app's only when no API token is present (spec 5.3.4).
  if (first === 'admin' && req.headers.authorization) return false;
  return true;
}

/** A browser's page load (HTML wanted, no API token) that the app does not own by its path. */
function isPlainBrowserGet(req: Request): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && wantsHtml(req) && !req.headers.authorization;
}

/**
 * Swaps a 404 answer for the app's page: the first write or end of the response (the proxied
 * service's, or the gateway's own) looks at the status; a 404 drops the JSON body and sends the
 * page with status 404 instead. Any other status passes through untouched.
 */
function shellOnNotFound(res: Response, sendShell: () => void): void {
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  let decided: 'shell' | 'pass' | undefined;
  const decide = (): boolean => {
    if (!decided) {
      decided = res.statusCode === 404 && !res.headersSent ? 'shell' : 'pass';
      res.write = write;
      res.end = end;
      if (decided === 'shell') {
        for (const h of ['content-length', 'content-type', 'content-encoding', 'etag']) res.removeHeader(h);
        sendShell();
      }
    }
    return decided === 'shell';
  };
  res.write = function (this: Response, ...args: Parameters<Response['write']>) {
    return decide() ? true : write(...args);
  } as Response['write'];
  res.end = function (this: Response, ...args: Parameters<Response['end']>) {
    return decide() ? this : end(...args);
  } as Response['end'];
}

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Agora</title></head><body><div id="app">Agora</div><noscript>This app needs JavaScript.</noscript></body></html>`;

export function spa(webDist: string): { guard: RequestHandler; assets: RequestHandler } {
  const indexFile = join(webDist, 'index.html');
  const index = existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : PLACEHOLDER;
  const sendIndex: RequestHandler = (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Security-Policy', APP_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.type('html').send(index);
  };
  const guard: RequestHandler = (req, res, next) => {
    if (isBrowserNavigation(req)) return sendIndex(req, res, next);
    if (isPlainBrowserGet(req)) shellOnNotFound(res, () => sendIndex(req, res, next));
    next();
  };
  const staticFiles = existsSync(webDist)
    ? express.static(webDist, {
        index: false,
        setHeaders: (res, path) => {
          // Vite names everything under assets/ by content hash, so those never change; the rest
          // (favicon) is revalidated.
          res.setHeader(
            'Cache-Control',
            /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
          );
          res.setHeader('X-Content-Type-Options', 'nosniff');
        },
      })
    : (_req: Request, _res: unknown, next: () => void) => next();
  const assets: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/' && wantsHtml(req)) return sendIndex(req, res, next);
    if (/^\/(assets|static)\//.test(req.path) || /\.(js|css|svg|png|ico|webmanifest|woff2?)$/.test(req.path))
      return (staticFiles as RequestHandler)(req, res, next);
    next();
  };
  return { guard, assets };
}
