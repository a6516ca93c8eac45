/**
 * The first-load JS budget (docs/web.md): the gzipped size of the entry chunk and every chunk it
 * imports statically, i.e. what a browser must fetch before the first screen renders. Lazy chunks
 * (the admin dashboard) are not counted. The build fails when the budget is exceeded.
 */
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

export const FIRST_LOAD_BUDGET_KB = 150;

interface ChunkLike {
  type: 'chunk';
  fileName: string;
  code: string;
  isEntry: boolean;
  imports: string[];
}

export function firstLoadBytes(bundle: Record<string, { type: string }>): { bytes: number; files: string[] } {
  const chunks = Object.values(bundle).filter((c): c is ChunkLike => c.type === 'chunk');
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const seen = new Set<string>();
  const walk = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const dep of byName.get(name)?.imports ?? []) walk(dep);
  };
  for (const c of chunks) if (c.isEntry) walk(c.fileName);
  let bytes = 0;
  for (const name of seen) bytes += gzipSync(byName.get(name)!.code).length;
  return { bytes, files: [...seen] };
}

export function jsBudget(limitKb = FIRST_LOAD_BUDGET_KB): Plugin {
  return {
    name: 'agora-js-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const { bytes, files } = firstLoadBytes(bundle);
      const kb = bytes / 1024;
      const line = `first-load JS: ${kb.toFixed(1)} KB gzipped in ${files.length} file(s); budget ${limitKb} KB`;
      if (kb > limitKb) this.error(`${line}: over budget`);
      this.info(line);
      this.emitFile({
        type: 'asset',
        fileName: 'budget.json',
        source: JSON.stringify({ firstLoadGzipBytes: bytes, budgetKb: limitKb, files }, null, 2),
      });
    },
  };
}
