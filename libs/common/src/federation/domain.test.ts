import { domainOf } from './domain';

test.each([
  ['https://peer.test/users/alice', 'peer.test'],
  ['http://Peer.Test:8081/users/@peer.test#main-key', 'peer.test:8081'],
  ['https://peer.test:443/x', 'peer.test'],
  ['@alice@peer.test', 'peer.test'],
  ['@Peer.Test', 'peer.test'],
  ['@alice@localhost:8081', 'localhost:8081'],
  ['post:65f0c0ffee@peer.test', 'peer.test'],
])('%s belongs to %s', (id, domain) => {
  expect(domainOf(id)).toBe(domain);
});

test.each([
  'alice',
  '',
  '@',
  '@alice@',
  '@alice@peer test',
  '@alice@.peer.test',
  'https://',
  'ftp://peer.test/x',
])('%p has no domain', (id) => {
  expect(domainOf(id)).toBeUndefined();
});
