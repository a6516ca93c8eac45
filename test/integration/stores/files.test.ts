/**
 * FilesStore on both engines (issue 22), index coverage checked: quota accounting exact
 * under concurrency (one usage document moved by conditional `$inc`s), records without storage
 * keys for clients, the owner's list, attach with one winner per file, soft delete giving the
 * bytes back once, and the GC's sweeps.
 */
import { FILES, FilesStore, STORAGE_USAGE, type NewFile } from '@agora/common/db';
import type { Engine } from '@agora/common/db/engine';
import { engineFixtures } from '../engine/fixtures';

const owner = '@ann@f.test';
const file = (over: Partial<NewFile> = {}): NewFile => ({
  actorId: owner,
  type: 'Image',
  name: 'cat.png',
  summary: '',
  mediaType: 'image/png',
  size: 100,
  width: 10,
  height: 10,
  checksum: 'c'.repeat(64),
  storageKey: 'files/secret',
  preview: { key: 'files/secret-preview', mediaType: 'image/webp', size: 10, width: 5, height: 5 },
  to: '@public',
  ...over,
});

describe.each(engineFixtures())('FilesStore on $name', (fx) => {
  let engine: Engine;
  let files: FilesStore;
  beforeAll(async () => {
    engine = await fx.open();
    await engine.ensure([FILES, STORAGE_USAGE]);
    files = new FilesStore(engine, 'f.test', 'https://f.test');
  });
  afterAll(async () => {
    await engine?.close();
    await fx.cleanup();
  });

  it('reserves exactly what fits: of 30 concurrent 100-byte uploads under a 1,000-byte quota, 10 pass', async () => {
    const res = await Promise.all(Array.from({ length: 30 }, () => files.reserve('@q@f.test', 100, 1000)));
    expect(res.filter(Boolean)).toHaveLength(10);
    expect(await files.usageOf('@q@f.test')).toEqual({ bytes: 1000, files: 10 });
    await Promise.all(Array.from({ length: 10 }, () => files.release('@q@f.test', 100)));
    expect(await files.usageOf('@q@f.test')).toEqual({ bytes: 0, files: 0 });
    expect(await files.usageOf('@nobody@f.test')).toEqual({ bytes: 0, files: 0 });
  });

  it('stores a record with its keys; clients see it without them', async () => {
    const id = files.mintId();
    const created = await files.create(id, file());
    expect(created).toMatchObject({
      id,
      url: `https://f.test/files/${id}`,
      parentObject: null,
      deletedAt: null,
    });
    expect((await files.findLive(id))?.storageKey).toBe('files/secret');
    const shown = await files.findPublic(id);
    expect(shown).toMatchObject({ id, objectType: 'File', preview: { mediaType: 'image/webp' } });
    expect(JSON.stringify(shown)).not.toContain('secret');
    expect(shown).not.toHaveProperty('_id');
    expect(shown?.createdAt).toBeInstanceOf(Date);
  });

  it("lists the owner's live files newest first, by type, with the total", async () => {
    const mine: string[] = [];
    for (const type of ['Image', 'Document', 'Image'] as const) {
      const id = files.mintId();
      await files.create(id, file({ actorId: '@lister@f.test', type }));
      mine.unshift(id);
      await new Promise((r) => setTimeout(r, 2));
    }
    const all = await files.listOwned('@lister@f.test', { skip: 0, limit: 10 });
    expect(all.total).toBe(3);
    expect(all.items.map((f) => f.id)).toEqual(mine);
    expect(JSON.stringify(all.items)).not.toContain('secret');
    const images = await files.listOwned('@lister@f.test', { type: 'Image', skip: 1, limit: 10 });
    expect(images).toMatchObject({ total: 2, items: [{ id: mine[2] }] });
  });

  it('attaches a file to exactly one of ten parents racing for it', async () => {
    const id = files.mintId();
    await files.create(id, file());
    const refused = await Promise.all(
      Array.from({ length: 10 }, (_, i) => files.attach(owner, [id], `post:${i}@f.test`)),
    );
    expect(refused.filter((r) => r.length === 0)).toHaveLength(1);
    const winner = refused.findIndex((r) => r.length === 0);
    expect((await files.findLive(id))?.parentObject).toBe(`post:${winner}@f.test`);
    // Attaching again to the same parent is fine; to another one, or someone else's file, is not.
    expect(await files.attach(owner, [id], `post:${winner}@f.test`)).toEqual([]);
    expect(await files.attach(owner, [id], 'post:other@f.test')).toEqual([id]);
    expect(await files.attach('@bob@f.test', [id], `post:${winner}@f.test`)).toEqual([id]);
  });

  it('a file attached elsewhere is refused and none of the others is attached', async () => {
    const [a, b] = [files.mintId(), files.mintId()];
    await files.create(a, file());
    await files.create(b, file());
    expect(await files.attach(owner, [b], 'post:taken@f.test')).toEqual([]);
    expect(await files.attach(owner, [a, b], 'post:new@f.test')).toEqual([b]);
    expect((await files.findLive(a))?.parentObject).toBeNull();
  });

  it('soft-deletes once of ten concurrent deleters, giving the bytes back once', async () => {
    const actor = '@deleter@f.test';
    expect(await files.reserve(actor, 100, 1000)).toBe(true);
    const id = files.mintId();
    await files.create(id, file({ actorId: actor }));
    const deleted = await Promise.all(Array.from({ length: 10 }, () => files.markDeleted(id)));
    expect(deleted.filter(Boolean)).toHaveLength(1);
    expect(await files.usageOf(actor)).toEqual({ bytes: 0, files: 0 });
    expect(await files.findLive(id)).toBeNull();
    expect((await files.deletedBatch(100)).map((f) => f.id)).toContain(id);
    await files.purge(id);
    expect((await files.deletedBatch(100)).map((f) => f.id)).not.toContain(id);
  });

  it("a deleted parent's files and a deleted account's files follow them", async () => {
    const actor = '@gone@f.test';
    const [a, b, c] = [files.mintId(), files.mintId(), files.mintId()];
    await files.create(a, file({ actorId: actor, parentObject: 'post:p@f.test' }));
    await files.create(b, file({ actorId: actor, parentObject: 'post:p@f.test' }));
    await files.create(c, file({ actorId: actor }));
    expect((await files.findLive(a))?.attachedAt).toBeInstanceOf(Date);
    expect(await files.deleteAttachedTo('post:p@f.test')).toBe(2);
    expect(await files.findLive(c)).not.toBeNull();
    expect(await files.deleteOwnedBy(actor)).toBe(1);
    expect(await files.findLive(c)).toBeNull();
  });

  it('the GC finds never-attached uploads older than the cut-off, oldest first', async () => {
    const cutoff = new Date(Date.now() + 1000);
    const orphans = await files.orphansBefore(cutoff, 100);
    expect(orphans.length).toBeGreaterThan(0);
    expect(orphans.every((f) => f.parentObject === null && f.deletedAt === null)).toBe(true);
    const times = orphans.map((f) => f.createdAt.getTime());
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expect(await files.orphansBefore(new Date(0), 100)).toEqual([]);
  });
});
