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
    `const { Router } = require(${JSON.stringify(require.resolve('express'))}); const { mountSub } = require(${JSON.stringify(join(__dirname, 'route-tree'))});\nmodule.exports.default = () => { const r = Router(); ${body}; return r; };`;
  for (const d of ['posts', 'home', 'utils', 'empty', 'admin']) mkdirSync(join(dir, d));
  writeFileSync(join(dir, 'posts', 'index.js'), router(`r.get('/', () => {}); r.post('/:id', () => {})`));
  writeFileSync(join(dir, 'home', 'index.js'), router(`r.get('/', () => {})`));
  writeFileSync(join(dir, 'utils', 'index.js'), router(`r.get('/x', () => {})`));
  writeFileSync(
    join(dir, 'admin', 'index.js'),
    router(`const s = Router(); s.get('/', () => {}); s.delete('/:id', () => {}); mountSub(r, '/users', s)`),
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
