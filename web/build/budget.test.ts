import { gzipSync } from 'node:zlib';
import { firstLoadBytes } from './budget';

const chunk = (fileName: string, code: string, imports: string[] = [], isEntry = false) => ({
  type: 'chunk',
  fileName,
  code,
  imports,
  isEntry,
});

test('counts the entry and what it imports statically, not lazy chunks or assets', () => {
  const bundle = {
    'index.js': chunk('index.js', 'import "./vendor.js";'.repeat(10), ['vendor.js'], true),
    'vendor.js': chunk('vendor.js', 'export const x = 1;'.repeat(50), ['shared.js']),
    'shared.js': chunk('shared.js', 'export const y = 2;'),
    'admin.js': chunk('admin.js', 'lazy admin code '.repeat(500), ['shared.js']),
    'style.css': { type: 'asset' },
  };
  const out = firstLoadBytes(bundle);
  expect(out.files.sort()).toEqual(['index.js', 'shared.js', 'vendor.js']);
  const expected = [bundle['index.js'], bundle['vendor.js'], bundle['shared.js']].reduce(
    (n, c) => n + gzipSync(c.code).length,
    0,
  );
  expect(out.bytes).toBe(expected);
});
