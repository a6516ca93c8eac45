/** The connect-time lookup: every DNS answer is judged, and one private answer refuses them all. */
import type { LookupAddress, LookupOptions } from 'node:dns';
import { addressPolicy, ForbiddenAddressError, guardedLookup, type Resolver } from './lookup';

const answers =
  (...addresses: string[]): Resolver =>
  () =>
    Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

function run(resolver: Resolver, options: LookupOptions, allowPrivate = false) {
  return new Promise<{
    err: NodeJS.ErrnoException | null;
    address: string | LookupAddress[];
    family?: number;
  }>((resolve) => {
    guardedLookup({ allowed: addressPolicy(allowPrivate), resolver })(
      'peer.test',
      options,
      (err, address, family) => resolve({ err, address, family }),
    );
  });
}

test('public answers pass, in the single and the all form', async () => {
  const resolver = answers('93.184.215.14', '2606:4700:4700::1111');
  expect(await run(resolver, {})).toEqual({ err: null, address: '93.184.215.14', family: 4 });
  const all = await run(resolver, { all: true });
  expect(all.err).toBeNull();
  expect(all.address).toEqual([
    { address: '93.184.215.14', family: 4 },
    { address: '2606:4700:4700::1111', family: 6 },
  ]);
});

test.each([
  ['a private answer', ['10.0.0.5']],
  ['loopback', ['127.0.0.1']],
  ['mixed public and private answers', ['93.184.215.14', '192.168.0.10']],
  ['mixed, the private one first', ['169.254.169.254', '93.184.215.14']],
  ['a mapped IPv6 loopback', ['::ffff:127.0.0.1']],
])('%s is refused in both forms', async (_, addresses) => {
  for (const options of [{}, { all: true }]) {
    const { err } = await run(answers(...addresses), options);
    expect(err).toBeInstanceOf(ForbiddenAddressError);
    expect(err?.code).toBe('EFORBIDDENADDRESS');
  }
});

test('allowPrivate lets private answers through', async () => {
  expect(await run(answers('127.0.0.1'), {}, true)).toEqual({ err: null, address: '127.0.0.1', family: 4 });
});

test('resolver failures and empty answers are errors, not connections', async () => {
  const failing: Resolver = () => Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' }));
  expect((await run(failing, {})).err?.code).toBe('ENOTFOUND');
  expect((await run(answers(), {})).err?.code).toBe('ENOTFOUND');
});

test('the requested family reaches the resolver', async () => {
  const families: number[] = [];
  const spy: Resolver = (_host, family) => (
    families.push(family),
    Promise.resolve([{ address: '8.8.8.8', family: 4 }])
  );
  await run(spy, { family: 4 });
  await run(spy, { family: 'IPv6' });
  await run(spy, {});
  expect(families).toEqual([4, 6, 0]);
});

test('the policy allows listed addresses only, besides public ones', () => {
  const allowed = addressPolicy(false, ['10.0.0.7']);
  expect(allowed('10.0.0.7')).toBe(true);
  expect(allowed('10.0.0.8')).toBe(false);
  expect(allowed('93.184.215.14')).toBe(true);
  expect(addressPolicy(true)('127.0.0.1')).toBe(true);
});
