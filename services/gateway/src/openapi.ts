/**
 * GET /openapi.json: the OpenAPI 3.1 document of the whole API, merged from every service's
 * GET /__openapi (each built from its mounted routes, so it lists what GET /__routes lists),
 * plus the gateway's own GET /health. GET /openapi: a small viewer of it (no CDN, no script
 * from elsewhere; docs/api.md).
 */
import { Router, type RequestHandler } from 'express';
import { mergeDocuments, type OpenApiDocument } from '@agora/common/openapi';
import type { ServiceName } from '@agora/common/routing';
import { VIEWER_CSS, VIEWER_HTML, VIEWER_JS } from './openapi-viewer';

const HEALTH = {
  '/health': {
    get: {
      operationId: 'getHealth',
      summary: 'Health of the gateway and of every service (503 when the database is down)',
      tags: ['health'],
      responses: {
        '200': {
          description: 'Every critical dependency answers',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  status: { type: 'string', enum: ['ok', 'error'] },
                  timestamp: { type: 'string' },
                  engine: { type: 'string', enum: ['sqlite', 'mongodb'] },
                  services: { type: 'object', additionalProperties: { type: 'string' } },
                  message: { type: 'string' },
                },
                required: ['status', 'timestamp', 'services'],
              },
            },
          },
        },
        default: { $ref: '#/components/responses/Error' },
      },
    },
  },
};

async function partAt(url: string): Promise<OpenApiDocument> {
  const res = await fetch(`${url}/__openapi`, {
    signal: AbortSignal.timeout(5000),
    headers: { accept: 'application/json' },
  });
  if (res.status !== 200) throw new Error(`${url}/__openapi answered ${res.status}`);
  return (await res.json()) as OpenApiDocument;
}

/** A service's part, from the first of its replicas that answers (they run the same code). */
async function part(urls: readonly string[]): Promise<OpenApiDocument> {
  let failure: unknown = new Error('no replica');
  for (const url of urls) {
    try {
      return await partAt(url);
    } catch (err) {
      failure = err;
    }
  }
  throw failure;
}

function documentHandler(targets: Record<ServiceName, readonly string[]>): RequestHandler {
  return (_req, res, next) => {
    Promise.all(Object.values(targets).map(part))
      .then((parts) => {
        const doc = mergeDocuments('agora', parts, HEALTH);
        doc.info.description = 'The HTTP API of an agora server (docs/api.md).';
        res.setHeader('Cache-Control', 'no-cache');
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.json(doc);
      })
      .catch(next);
  };
}

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'";

function asset(type: string, body: string): RequestHandler {
  return (_req, res) => {
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('Cache-Control', 'no-cache');
    res.send(body);
  };
}

export function openApiRoutes(targets: Record<ServiceName, readonly string[]>): Router {
  const r = Router({ strict: true, caseSensitive: true });
  r.get('/openapi.json', documentHandler(targets));
  // As GET /__routes: the gateway's own answer is the merged one, never social's part.
  r.get('/__openapi', documentHandler(targets));
  r.get('/openapi', asset('text/html; charset=utf-8', VIEWER_HTML));
  r.get('/openapi/viewer.js', asset('text/javascript; charset=utf-8', VIEWER_JS));
  r.get('/openapi/viewer.css', asset('text/css; charset=utf-8', VIEWER_CSS));
  return r;
}
