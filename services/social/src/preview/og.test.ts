import { extractPreview } from './og';

test('OpenGraph first, Twitter cards and <title> as fallbacks, entities decoded, image made absolute', () => {
  const html = `<!doctype html><html><head>
    <title>Fallback &amp; title</title>
    <meta property="og:title" content="Tom &amp; Jerry&#39;s &#x1F600; day">
    <meta name="twitter:description" content='A  short
      summary'>
    <meta property="og:image" content="/img/card.png">
    <meta property="og:site_name" content="Example News">
  </head><body><meta property="og:title" content="not this"></body></html>`;
  expect(extractPreview(html, 'https://news.example/a/b')).toEqual({
    title: "Tom & Jerry's 😀 day",
    summary: 'A short summary',
    image: 'https://news.example/img/card.png',
    siteName: 'Example News',
  });
});

test('a page without tags gives its title; unsafe image URLs are dropped', () => {
  const html =
    '<html><head><title> Plain </title><meta name="twitter:image" content="javascript:alert(1)"></head></html>';
  expect(extractPreview(html, 'https://x.example/')).toEqual({
    title: 'Plain',
    summary: null,
    image: null,
    siteName: null,
  });
});

test('entity names are looked up by own keys: `&constructor;` stays text', () => {
  const html = '<head><title>A &constructor; B &toString; &amp; C</title></head>';
  expect(extractPreview(html, 'https://x.example/').title).toBe('A &constructor; B &toString; & C');
});
