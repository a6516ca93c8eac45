import { allowedBy, sniff } from './sniff';

const b = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

test.each([
  ['jpeg', b([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'],
  ['png', b([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'image/png'],
  ['gif', b('GIF89a'), 'image/gif'],
  ['webp', b('RIFF', [0, 0, 0, 0], 'WEBP'), 'image/webp'],
  ['wav', b('RIFF', [0, 0, 0, 0], 'WAVE'), 'audio/wav'],
  ['mp4', b([0, 0, 0, 0x20], 'ftypisom'), 'video/mp4'],
  ['mov', b([0, 0, 0, 0x14], 'ftypqt  '), 'video/quicktime'],
  ['avif', b([0, 0, 0, 0x1c], 'ftypavif'), 'image/avif'],
  ['webm', b([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84], 'webm'), 'video/webm'],
  ['ogg', b('OggS'), 'audio/ogg'],
  ['flac', b('fLaC'), 'audio/flac'],
  ['mp3 id3', b('ID3', [3, 0]), 'audio/mpeg'],
  ['mp3 frame', b([0xff, 0xfb, 0x90]), 'audio/mpeg'],
  ['pdf', b('%PDF-1.7'), 'application/pdf'],
])('%s is recognised from its bytes', (_name, head, type) => {
  expect(sniff(head)?.mediaType).toBe(type);
});

test.each([
  ['svg', b('<svg xmlns="http://www.w3.org/2000/svg">')],
  ['xml svg', b('<?xml version="1.0"?><svg>')],
  ['html', b('<!doctype html><script>')],
  ['text', b('hello world')],
  ['matroska', b([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88], 'matroska')],
  ['empty', Buffer.alloc(0)],
  ['exe', b('MZ', [0x90, 0])],
])('%s is refused', (_name, head) => {
  expect(sniff(head)).toBeNull();
});

test('the allowedUploadTypes setting narrows by family or exact type', () => {
  expect(allowedBy(['image'], 'image/png')).toBe(true);
  expect(allowedBy(['image'], 'application/pdf')).toBe(false);
  expect(allowedBy(['application/pdf'], 'application/pdf')).toBe(true);
  expect(allowedBy(undefined, 'video/mp4')).toBe(true);
});
