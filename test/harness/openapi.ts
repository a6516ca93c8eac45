/** Holds an OpenAPI document against GET /__routes: both as sorted `METHOD /path/{param}` keys. */
import type { OpenApiDocument } from '@agora/common/openapi';
import { listedRoutes } from './route-walk';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export async function fetchDocument(base: string): Promise<OpenApiDocument> {
  const res = await fetch(`${base}/openapi.json`, { headers: { accept: 'application/json' } });
  if (res.status !== 200) throw new Error(`GET ${base}/openapi.json: ${res.status}`);
  return (await res.json()) as OpenApiDocument;
}

export async function listedKeys(base: string): Promise<string[]> {
  return (await listedRoutes(base))
    .flatMap((r) => r.methods.map((m) => `${m.toUpperCase()} ${r.path.replace(/:([A-Za-z_]\w*)/g, '{$1}')}`))
    .sort();
}

export function documentedKeys(doc: OpenApiDocument): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => METHODS.includes(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    )
    .sort();
}
