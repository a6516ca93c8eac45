import { newShare, shareContent } from './share';

describe('shares (ADR 0022, ADR 0024)', () => {
  test("the body links to the original's author (escaped) and quotes the original", () => {
    expect(
      shareContent({ url: 'https://a.test/p?x=1&y="2"', author: '@bob@a.test', content: '<p>hi</p>' }),
    ).toBe(
      '<p>🔁 <a href="https://a.test/p?x=1&amp;y=&quot;2&quot;">@bob@a.test</a></p><blockquote><p>hi</p></blockquote>',
    );
  });

  test("a local share: public, the original's url and warning, what it shares, no source of its own", () => {
    const share = newShare(
      {
        id: 'post:1@a.test',
        url: 'https://a.test/posts/post:1@a.test',
        author: '@bob@a.test',
        content: '<p>hi @carol@a.test</p><script>x()</script>',
        contentWarning: 'spoiler',
        sensitive: true,
      },
      { id: 'post:2@a.test', author: { id: '@alice@a.test', name: 'alice' }, server: '@a.test' },
      new Date(0),
    );
    expect(share).toMatchObject({
      id: 'post:2@a.test',
      type: 'Note',
      actorId: '@alice@a.test',
      url: 'https://a.test/posts/post:1@a.test',
      to: '@public',
      canReply: '@public',
      canReact: '@public',
      shareOf: 'post:1@a.test',
      contentWarning: 'spoiler',
      sensitive: true,
      source: { content: '', mediaType: 'text/html' },
      publishedAt: new Date(0),
    });
    expect(share.body).toContain('<blockquote><p>hi @carol@a.test</p>');
    expect(share.body).not.toContain('script');
    expect(share.summary).toContain('hi @carol@a.test');
  });
});
