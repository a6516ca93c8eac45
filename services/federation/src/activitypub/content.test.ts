import type { FederationContext } from '../context';
import type { IdMap } from './ids';
import { reactionToSpec } from './inbound-content';
import { tagsOf } from './outbound-content';

const ctx = { config: { DOMAIN: 'social.test', publicUrl: 'https://social.test' } } as FederationContext;
/** The id map as ids.ts answers it for one known remote actor and this server's ids. */
const known: Record<string, string> = {
  '@carol@peer.test': 'https://peer.test/users/carol',
  '@alice@social.test': 'https://social.test/ap/users/alice',
  'post:p1@social.test': 'https://social.test/ap/objects/post%3Ap1%40social.test',
};
const ids: IdMap = {
  idOf: (url) => Promise.resolve(Object.entries(known).find(([, u]) => u === url)?.[0]),
  urlOf: (id) => Promise.resolve(known[id]),
  objectIdOf: (url, kind = 'post') => Promise.resolve(`${kind}:${url.length}@peer.test`),
};

describe('tag: mentions and hashtags of a post written here', () => {
  test('a known handle is a Mention with its URL (and in `cc`); a tag a Hashtag; links absolute', async () => {
    const md = 'hi @carol@peer.test and @alice@social.test, #Fedi #fedi #1 a#b';
    const html =
      '<p>hi <a href="/users/%40carol%40peer.test">@carol@peer.test</a> <a href="/search?q=%23Fedi">#Fedi</a></p>';
    const out = await tagsOf(ctx, ids, md, html);
    expect(out.tag).toEqual([
      { type: 'Mention', href: 'https://peer.test/users/carol', name: '@carol@peer.test' },
      { type: 'Mention', href: 'https://social.test/ap/users/alice', name: '@alice@social.test' },
      { type: 'Hashtag', href: 'https://social.test/search?q=%23fedi', name: '#fedi' },
    ]);
    expect(out.mentioned).toEqual(['https://peer.test/users/carol', 'https://social.test/ap/users/alice']);
    expect(out.content).toBe(
      '<p>hi <a href="https://peer.test/users/carol">@carol@peer.test</a> <a href="https://social.test/search?q=%23Fedi">#Fedi</a></p>',
    );
  });

  test('a handle with no known actor is no Mention; an address is no handle', async () => {
    const out = await tagsOf(ctx, ids, 'mail me@dave@peer.test or @nobody@elsewhere.test', '');
    expect(out.tag).toEqual([]);
    expect(out.mentioned).toEqual([]);
  });
});

describe('Like and EmojiReact as the spec’s React', () => {
  test('a Like with no emoji is 👍 ("Like"); its content or Misskey reaction is the emoji', async () => {
    const like = { id: 'https://peer.test/likes/1', type: 'Like', object: known['post:p1@social.test'] };
    expect(await reactionToSpec(ids, like)).toEqual({
      type: 'React',
      to: 'post:p1@social.test',
      object: { id: `react:${like.id.length}@peer.test`, type: 'React', emoji: '👍', name: 'Like' },
    });
    const misskey = await reactionToSpec(ids, { ...like, _misskey_reaction: '⭐' });
    expect(misskey.object).toMatchObject({ emoji: '⭐' });
    const emoji = await reactionToSpec(ids, { ...like, type: 'EmojiReact', content: ' 🎉 ' });
    expect(emoji.object).toMatchObject({ emoji: '🎉' });
    expect((emoji.object as Record<string, unknown>).name).toBeUndefined();
  });

  test('an object not held here stays its URL (the social service ignores it)', async () => {
    const out = await reactionToSpec(ids, {
      id: 'https://peer.test/likes/2',
      type: 'Like',
      object: 'https://x.test/n',
    });
    expect(out.to).toBe('https://x.test/n');
  });
});
