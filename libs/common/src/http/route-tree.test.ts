import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRouteTree, discoverRouteDirs, listRoutes, mountPathFor } from './route-tree';

test('mount paths of spec 1.1', () => {
  expect(mountPathFor('home')).toBe('/');
  expect(mountPathFor('well-known')).toBe('/.well-known');
  expect(mountPathFor('config')).toBe('/config.json');
  expect(mountPathFor('posts')).toBe('/posts');
  expect(mountPathFor('middleware')).toBeNull();
  expect(mountPathFor('utils')).toBeNull();
});

test('only directories with an index are mounted, and /__routes lists nested routes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'routes-'));
  const router = (body: string) =>
    `const { Router } = require(${JSON.stringify(require.resolve('express'))});\nmodule.exports.default = () => { const r = Router(); ${body}; return r; };`;
  for (const d of ['posts', 'home', 'utils', 'empty', 'admin']) mkdirSync(join(dir, d));
  writeFileSync(join(dir, 'posts', 'index.js'), router(`r.get('/', () => {}); r.post('/:id', () => {})`));
  writeFileSync(join(dir, 'home', 'index.js'), router(`r.get('/', () => {})`));
  writeFileSync(join(dir, 'utils', 'index.js'), router(`r.get('/x', () => {})`));
  writeFileSync(
    join(dir, 'admin', 'index.js'),
    router(`const s = Router(); s.get('/', () => {}); s.delete('/:id', () => {}); r.use('/users', s)`),
  );
  expect(discoverRouteDirs(dir).map((d) => d.path)).toEqual(['/admin', '/posts', '/']);
  const routes = listRoutes(buildRouteTree(dir, {}));
  expect(routes).toEqual([
    { methods: ['GET'], path: '/' },
    { methods: ['GET'], path: '/admin/users' },
    { methods: ['DELETE'], path: '/admin/users/:id' },
    { methods: ['GET'], path: '/posts' },
    { methods: ['POST'], path: '/posts/:id' },
  ]);
});

test('the listing reads mount paths from the layers, whatever wraps their handles', () => {
  // OpenTelemetry's express instrumentation replaces each layer's handle with a wrapper that
  // keeps the child's `stack`: the listing must still name the full path (issue 21, item 3).
  const dir = mkdtempSync(join(tmpdir(), 'routes-'));
  mkdirSync(join(dir, 'admin'));
  writeFileSync(
    join(dir, 'admin', 'index.js'),
    `const { Router } = require(${JSON.stringify(require.resolve('express'))});
module.exports.default = () => {
  const r = Router();
  const system = Router();
  system.get('/logs', () => {});
  r.use('/system', system);
  for (const layer of r.stack) {
    const inner = layer.handle;
    const wrapped = function (req, res, next) { return inner(req, res, next); };
    wrapped.stack = inner.stack;
    layer.handle = wrapped;
  }
  return r;
};`,
  );
  expect(listRoutes(buildRouteTree(dir, {}))).toEqual([{ methods: ['GET'], path: '/admin/system/logs' }]);
});
