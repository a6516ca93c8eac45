/**
 * LinkPreviewsStore on both engines (issue 22): a cached preview comes back as it was put (its
 * fetch time a Date), a later fetch replaces every field, and concurrent puts of one URL leave
 * one whole entry.
 */
import { LINK_PREVIEWS, LinkPreviewsStore, type CachedPreview } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

describe.each(engineFixtures())('LinkPreviewsStore on $name', (fx) => {
  let engine: Engine;
  let store: LinkPreviewsStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([LINK_PREVIEWS]);
    store = new LinkPreviewsStore(engine);
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  const at = new Date(Date.UTC(2026, 0, 1, 12));
  const card = (title: string): CachedPreview => ({
    url: 'https://example.test/a',
    data: {
      title,
      url: 'https://example.test/a',
      images: [{ url: 'https://example.test/i.png' }],
      site: null,
    },
    failure: null,
    fetchedAt: at,
  });

  it('gives back what was put, and null for an unknown key', async () => {
    expect(await store.get('h1')).toBeNull();
    await store.put('h1', card('First'));
    expect(await store.get('h1')).toEqual(card('First'));
    expect((await store.get('h1'))!.fetchedAt).toBeInstanceOf(Date);
  });

  it('a later fetch replaces the entry, a failure included', async () => {
    const later = new Date(at.getTime() + 60_000);
    await store.put('h1', {
      url: 'https://example.test/a',
      data: null,
      failure: 'timeout',
      fetchedAt: later,
    });
    expect(await store.get('h1')).toEqual({
      url: 'https://example.test/a',
      data: null,
      failure: 'timeout',
      fetchedAt: later,
    });
  });

  it('ten concurrent puts of one URL leave one whole entry', async () => {
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.put('h2', card(`T${i}`))));
    const got = await store.get('h2');
    expect(got).toMatchObject({ url: 'https://example.test/a', failure: null, fetchedAt: at });
    expect(got!.data!.title).toMatch(/^T\d$/);
  });
});
