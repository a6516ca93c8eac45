import { httpUrl, isHttpUrl, isMediaRef, withSafeUrls } from './validation';

test.each([
  ['https://example.org/a?b#c', true],
  ['http://example.org', true],
  ['HTTPS://EXAMPLE.ORG/', true],
  ['javascript:alert(1)', false],
  ['JavaScript:alert(1)', false],
  [' javascript:alert(1)', false],
  ['data:text/html,<script>1</script>', false],
  ['vbscript:msgbox', false],
  ['file:///etc/passwd', false],
  ['//example.org/x', false],
  ['https://', false],
  ['https://example.org/ x', false],
  [`https://example.org/${'a'.repeat(2000)}`, false],
  [42, false],
])('isHttpUrl(%j) is %s', (value, ok) => {
  expect(isHttpUrl(value)).toBe(ok);
  expect(httpUrl.safeParse(value).success).toBe(ok);
});

test('media references also take this server’s own files, never other schemes', () => {
  expect(isMediaRef('/files/abc.png')).toBe(true);
  expect(isMediaRef('file:0123abcd@social.test')).toBe(true);
  expect(isMediaRef('//evil.test/x.png')).toBe(false);
  expect(isMediaRef('/\\evil.test/x.png')).toBe(false);
  expect(isMediaRef('javascript:alert(1)')).toBe(false);
});

test('objects from other servers keep only http(s) URLs, nested copies included', () => {
  const out = withSafeUrls({
    id: 'post:1@peer.test',
    href: 'javascript:alert(1)',
    image: 'https://peer.test/i.png',
    icon: 'data:image/svg+xml,<svg/>',
    url: 'https://peer.test/p/1',
    urls: ['https://ok.test/', 'javascript:x'],
    actor: { id: '@a@peer.test', icon: 'javascript:x', url: 'https://peer.test/a' },
    profile: { featuredImage: 'vbscript:x', icon: 'https://peer.test/a.png' },
  });
  expect(out).toEqual({
    id: 'post:1@peer.test',
    image: 'https://peer.test/i.png',
    url: 'https://peer.test/p/1',
    urls: ['https://ok.test/'],
    actor: { id: '@a@peer.test', url: 'https://peer.test/a' },
    profile: { icon: 'https://peer.test/a.png' },
  });
});
