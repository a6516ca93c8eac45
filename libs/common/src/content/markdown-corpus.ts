/**
 * Thirty markdown samples that the server's rendering and the web app's compose preview must turn
 * into the same HTML (render.test.ts, and test/browser/everyday-story.test.ts in a real browser):
 * lists, headings, bare URLs, hashtags, mentions, code, emphasis, links and HTML to strip.
 */
export const MARKDOWN_CORPUS: readonly string[] = [
  '1. first\n2. second\n3. third',
  '3. starts at three\n4. then four',
  '- one\n- two\n  - nested',
  '# A heading',
  '## Second level\n\ntext under it',
  '#### Fourth level',
  'see https://example.com/garden?x=1 for more',
  'www.example.org is linked too',
  '#garden and #tomatoes_2026',
  'not a tag: #1 or a#b or &#35;x',
  'hello @alice@example.com!',
  'mail bob@example.com please',
  '`inline #code` and `@me@example.com`',
  '```\nconst x = 1 < 2;\n#notatag\n```',
  '*emphasis* and _also_ and **strong** and ~~struck~~',
  '***both***',
  '[a link](https://example.com "title")',
  '[bad link](javascript:alert(1))',
  '![an image](https://example.com/a.png)',
  '<script>alert(1)</script>after',
  '<b>bold</b> <i>italic</i> <span style="color:red">red</span>',
  '<a href="https://example.com" onclick="x()">html link</a>',
  '<iframe src="https://example.com"></iframe>framed',
  '> a quote\n> on two lines',
  'line one\nline two',
  'para one\n\npara two',
  '---',
  'a | b\n--|--\n1 | 2',
  'escaped \\*stars\\* and 5 > 3 & 2 < 4',
  'mixed: **#bold_tag** in [#linktext](https://example.com) with @carol@agora.example',
];
