import { mediaFrom, sensitivityFrom, wireSensitivity } from './sensitivity';

describe('sensitivity on the wire (ADR 0021)', () => {
  test("another server's summary is the warning, cut to 500; sensitive only when true", () => {
    expect(sensitivityFrom({ summary: '  cw  ', sensitive: true })).toEqual({
      contentWarning: 'cw',
      sensitive: true,
    });
    expect(sensitivityFrom({ summary: 'x'.repeat(600), sensitive: 'true' })).toEqual({
      contentWarning: 'x'.repeat(500),
      sensitive: false,
    });
    expect(sensitivityFrom({ summary: null, sensitive: 1 })).toEqual({
      contentWarning: '',
      sensitive: false,
    });
  });

  test('attachments: http(s) URLs only (a string, a Link or a list), names cut to 1,500, at most 20', () => {
    const media = mediaFrom({
      attachment: [
        {
          type: 'Image',
          url: 'https://a.test/1.png',
          mediaType: 'image/png',
          name: 'one',
          width: 10,
          height: -1,
        },
        { type: 'Image', url: { type: 'Link', href: 'http://a.test/2.jpg' }, name: 'd'.repeat(2000) },
        { type: 'Image', url: [{ href: 'javascript:alert(1)' }, 'https://a.test/3.gif'] },
        { type: 'Image', url: 'file:///etc/passwd', name: 'no' },
        { type: 'Image', url: 'data:image/png;base64,AAAA' },
        'https://a.test/bare-string-is-not-an-object',
        null,
      ],
    });
    expect(media).toEqual([
      { url: 'https://a.test/1.png', mediaType: 'image/png', description: 'one', width: 10 },
      { url: 'http://a.test/2.jpg', mediaType: '', description: 'd'.repeat(1500) },
      { url: 'https://a.test/3.gif', mediaType: '', description: '' },
    ]);
    const many = Array.from({ length: 30 }, (_, i) => ({ url: `https://a.test/${i}` }));
    expect(mediaFrom({ attachment: many })).toHaveLength(20);
    expect(mediaFrom({ attachment: { url: 'https://a.test/one' } })).toHaveLength(1);
    expect(mediaFrom({})).toEqual([]);
  });

  test('outbound: summary only with a warning, sensitive always, attachment only with media', () => {
    expect(wireSensitivity({})).toEqual({ sensitive: false });
    expect(
      wireSensitivity({
        contentWarning: 'cw',
        sensitive: true,
        media: [
          {
            id: 'file:x',
            url: 'https://h.test/files/x',
            mediaType: 'image/png',
            description: 'alt',
            width: 3,
          },
        ],
      }),
    ).toEqual({
      summary: 'cw',
      sensitive: true,
      attachment: [
        { type: 'Image', mediaType: 'image/png', url: 'https://h.test/files/x', name: 'alt', width: 3 },
      ],
    });
    expect(
      wireSensitivity({
        media: [{ url: 'https://h.test/a.pdf', mediaType: 'application/pdf', description: '' }],
      }).attachment,
    ).toEqual([{ type: 'Document', mediaType: 'application/pdf', url: 'https://h.test/a.pdf', name: '' }]);
  });
});
