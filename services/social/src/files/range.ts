/**
 * One `Range: bytes=…` (RFC 9110 §14): a single range is honoured, clamped to the size; a
 * start past the end or numbers beyond what a file can hold are unsatisfiable (416). Several
 * ranges or other units are ignored (the whole file is served), as the RFC allows.
 */
export type RangeResult =
  { kind: 'none' } | { kind: 'unsatisfiable' } | { kind: 'range'; start: number; end: number };

const SINGLE = /^bytes=(\d*)-(\d*)$/;

export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return { kind: 'none' };
  const m = SINGLE.exec(header.trim());
  if (!m) return { kind: 'none' };
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return { kind: 'none' };
  if (a.length > 15 || b.length > 15) return { kind: 'unsatisfiable' };
  if (a === '') {
    // A suffix: the last n bytes.
    const n = Number(b);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  if (start >= size || end < start) return { kind: 'unsatisfiable' };
  return { kind: 'range', start, end };
}
