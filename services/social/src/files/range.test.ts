import { parseRange } from './range';

test.each([
  [undefined, { kind: 'none' }],
  ['bytes=0-99', { kind: 'range', start: 0, end: 99 }],
  ['bytes=100-', { kind: 'range', start: 100, end: 999 }],
  ['bytes=-10', { kind: 'range', start: 990, end: 999 }],
  ['bytes=-5000', { kind: 'range', start: 0, end: 999 }],
  ['bytes=900-5000', { kind: 'range', start: 900, end: 999 }],
  ['bytes=1000-', { kind: 'unsatisfiable' }],
  ['bytes=5-4', { kind: 'unsatisfiable' }],
  ['bytes=-0', { kind: 'unsatisfiable' }],
  ['bytes=0-99999999999999999999', { kind: 'unsatisfiable' }],
  ['bytes=99999999999999999999-', { kind: 'unsatisfiable' }],
  ['bytes=0-1,5-6', { kind: 'none' }],
  ['items=0-1', { kind: 'none' }],
  ['bytes=-', { kind: 'none' }],
])('%s on 1000 bytes', (header, expected) => {
  expect(parseRange(header, 1000)).toEqual(expected);
});
