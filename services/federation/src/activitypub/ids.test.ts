import { handleFor, localIdOf, localUrlOf, remoteObjectIdFor, serverActorUrl } from './ids';

const config = { DOMAIN: 'social.test', publicUrl: 'https://social.test' };

describe('the id mapping (two forms, one identity)', () => {
  test.each([
    ['@alice@social.test', 'https://social.test/ap/users/alice'],
    ['@social.test', 'https://social.test/ap/actor'],
    [
      'post:0123456789abcdef01234567@social.test',
      'https://social.test/ap/objects/post%3A0123456789abcdef01234567%40social.test',
    ],
  ])('%s ⇄ %s', (id, url) => {
    expect(localUrlOf(config, id)).toBe(url);
    expect(localIdOf(config, url)).toBe(id);
  });

  test("another server's ids have no URL here, and other URLs no id", () => {
    expect(localUrlOf(config, '@bob@b.test')).toBeUndefined();
    expect(localUrlOf(config, 'post:abc@b.test')).toBeUndefined();
    expect(localIdOf(config, 'https://b.test/ap/users/bob')).toBeUndefined();
    expect(localIdOf(config, 'https://social.test/users/alice')).toBeUndefined();
    // An object URL naming an id of another domain is not one of ours.
    expect(localIdOf(config, 'https://social.test/ap/objects/post%3Aabc%40b.test')).toBeUndefined();
  });

  test('a fragment or query does not change the actor', () => {
    expect(localIdOf(config, 'https://social.test/ap/users/alice#main-key')).toBe('@alice@social.test');
    expect(serverActorUrl(config)).toBe('https://social.test/ap/actor');
  });

  test('remote actors are named by handle, remote objects by a stable hash of their URL', () => {
    expect(handleFor('Carol', 'http://peer.test/users/carol')).toBe('@carol@peer.test');
    const id = remoteObjectIdFor('http://peer.test/notes/1');
    expect(id).toMatch(/^post:[0-9a-f]{24}@peer\.test$/);
    expect(remoteObjectIdFor('http://peer.test/notes/1')).toBe(id);
    expect(remoteObjectIdFor('http://peer.test/notes/2')).not.toBe(id);
  });
});
