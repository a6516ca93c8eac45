import { topicMatches } from './topic';

describe('topicMatches', () => {
  it.each([
    ['post.created', 'post.created', true],
    ['post.created', 'post.deleted', false],
    ['post.*', 'post.created', true],
    ['post.*', 'post', false],
    ['post.*', 'post.created.remote', false],
    ['post.#', 'post', true],
    ['post.#', 'post.created.remote', true],
    ['#', 'anything.at.all', true],
    ['*.created', 'reply.created', true],
    ['#.created', 'a.b.created', true],
    ['#.created', 'a.b.deleted', false],
  ])('%s vs %s → %s', (pattern, key, expected) => {
    expect(topicMatches(pattern, key)).toBe(expected);
  });
});
