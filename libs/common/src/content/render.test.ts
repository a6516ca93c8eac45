import { MARKDOWN_CORPUS } from './markdown-corpus';
import { renderMarkdown } from './index';
import { loadRenderer } from '../../../../web/src/ui/render-loader';

describe('one renderer for the server and the compose preview', () => {
  test('the corpus has 30 samples', () => {
    expect(MARKDOWN_CORPUS).toHaveLength(30);
  });

  test('the web app loads the module the server renders with, and it renders every sample the same', async () => {
    const web = await loadRenderer();
    for (const sample of MARKDOWN_CORPUS)
      expect([sample, web.renderMarkdown(sample)]).toEqual([sample, renderMarkdown(sample)]);
  });

  test.each([
    ['1. first\n2. second\n3. third', /<ol>\s*<li>first<\/li>\s*<li>second<\/li>\s*<li>third<\/li>\s*<\/ol>/],
    ['3. starts at three\n4. then four', /<ol start="3">/],
    ['# A heading', /^<h1>A heading<\/h1>/],
    [
      'see https://example.com/garden?x=1 for more',
      /<a href="https:\/\/example.com\/garden\?x=1" rel="nofollow noopener noreferrer">/,
    ],
    [
      '#garden and #tomatoes_2026',
      /<a href="\/search\?q=%23garden"[^>]*>#garden<\/a> and <a href="\/search\?q=%23tomatoes_2026"/,
    ],
    ['hello @alice@example.com!', /<a href="\/users\/%40alice%40example.com"[^>]*>@alice@example.com<\/a>!/],
    ['`inline #code` and `@me@example.com`', /<code>inline #code<\/code> and <code>@me@example.com<\/code>/],
    [
      '*emphasis* and _also_ and **strong** and ~~struck~~',
      /<em>emphasis<\/em> and <em>also<\/em> and <strong>strong<\/strong> and <del>struck<\/del>/,
    ],
  ])('%j renders as expected', (source, html) => {
    expect(renderMarkdown(source)).toMatch(html);
  });

  test.each([
    ['not a tag: #1 or a#b or &#35;x', /href/],
    ['```\nconst x = 1 < 2;\n#notatag\n```', /<a /],
    ['[bad link](javascript:alert(1))', /javascript/],
    ['<script>alert(1)</script>after', /script|alert/],
    ['<a href="https://example.com" onclick="x()">html link</a>', /onclick/],
    ['<iframe src="https://example.com"></iframe>framed', /iframe/],
    ['<b>bold</b> <i>italic</i> <span style="color:red">red</span>', /<b>|<i>|style/],
  ])('%j keeps nothing it must not', (source, forbidden) => {
    expect(renderMarkdown(source)).not.toMatch(forbidden);
  });
});
