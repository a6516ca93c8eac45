import { requestHash } from './idempotency';

test('requestHash: key order does not matter; any value change, array order or type does', () => {
  const base = requestHash({ type: 'Create', object: { content: 'hi', tags: ['a', 'b'] }, to: '@public' });
  expect(base).toMatch(/^[0-9a-f]{64}$/);
  expect(requestHash({ to: '@public', object: { tags: ['a', 'b'], content: 'hi' }, type: 'Create' })).toBe(
    base,
  );
  for (const other of [
    { type: 'Create', object: { content: 'hi!', tags: ['a', 'b'] }, to: '@public' },
    { type: 'Create', object: { content: 'hi', tags: ['b', 'a'] }, to: '@public' },
    { type: 'Create', object: { content: 'hi', tags: ['a', 'b'] }, to: '@public', extra: null },
    { type: 'Create', object: { content: 'hi', tags: 'a,b' }, to: '@public' },
  ])
    expect(requestHash(other)).not.toBe(base);
  // Strings that look alike as JSON fragments stay distinct.
  expect(requestHash({ a: '1' })).not.toBe(requestHash({ a: 1 }));
  expect(requestHash(['a,b'])).not.toBe(requestHash(['a', 'b']));
});
