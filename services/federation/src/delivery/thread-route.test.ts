import { threadRoute } from './thread-route';

const HERE = 'a.test';
describe('threadRoute: where a reply or reaction goes', () => {
  test.each([
    // a thread rooted here
    [
      { rootOrigin: null, authorId: '@alice@a.test', byAuthor: true },
      { to: 'copies', relay: false },
    ],
    [
      { rootOrigin: null, authorId: '@alice@a.test', byAuthor: false },
      { to: 'copies', relay: false },
    ],
    [
      { rootOrigin: null, authorId: '@bob@b.test', byAuthor: true },
      { to: 'copies', relay: true, except: 'b.test' },
    ],
    // a moderator's change to a remote author's reply stays here
    [{ rootOrigin: null, authorId: '@bob@b.test', byAuthor: false }, { to: 'nobody' }],
    // another server's thread
    [
      { rootOrigin: 'b.test', authorId: '@alice@a.test', byAuthor: true },
      { to: 'owner', domain: 'b.test' },
    ],
    [
      { rootOrigin: 'b.test', authorId: '@alice@a.test', byAuthor: false },
      { to: 'owner', domain: 'b.test' },
    ],
    [{ rootOrigin: 'b.test', authorId: '@bob@b.test', byAuthor: true }, { to: 'nobody' }],
    [{ rootOrigin: 'b.test', authorId: '@carol@c.test', byAuthor: true }, { to: 'nobody' }],
  ] as const)('%o → %o', (input, route) => {
    expect(threadRoute({ domain: HERE, ...input })).toEqual(route);
  });
});
