import { admit } from './thread-trust';

// Written out: who may tell a server about an interaction in a thread, for every kind of sender.
const HERE = null; // the thread's root is this server's own post
describe('admit: the thread owner is the authority for its thread', () => {
  test.each([
    // thread rooted here: a peer speaks for its own users, checked like a local write
    [{ signerDomain: 'b.test', actorId: '@bob@b.test', rootOrigin: HERE }, 'check'],
    // ... and not for another server's users (a relay into our own thread is nobody's to make)
    [{ signerDomain: 'c.test', actorId: '@bob@b.test', rootOrigin: HERE }, 'refused'],
    [{ signerDomain: 'b.test', actorId: '@b.test', rootOrigin: HERE }, 'check'],
    // thread rooted on a.test: a.test is heard for its users and for what it relays
    [{ signerDomain: 'a.test', actorId: '@alice@a.test', rootOrigin: 'a.test' }, 'vouched'],
    [{ signerDomain: 'a.test', actorId: '@bob@b.test', rootOrigin: 'a.test' }, 'vouched'],
    // ... and nobody else is, not even the author's own server
    [{ signerDomain: 'b.test', actorId: '@bob@b.test', rootOrigin: 'a.test' }, 'refused'],
    [{ signerDomain: 'c.test', actorId: '@bob@b.test', rootOrigin: 'a.test' }, 'refused'],
  ] as const)('%o → %s', (input, verdict) => {
    expect(admit(input).verdict).toBe(verdict);
  });

  test('a refusal says why', () => {
    expect(admit({ signerDomain: 'c.test', actorId: '@bob@b.test', rootOrigin: 'a.test' })).toEqual({
      verdict: 'refused',
      reason: 'only a.test, which owns the thread, may tell this server about it',
    });
  });
});
