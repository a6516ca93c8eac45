/**
 * Security tier, files (docs/security.md): an upload's `to` takes the audience rules of a post
 * (the writer must be able to address it), and a deleted account's files are nobody's to read,
 * whichever way the account went (its owner's Delete, or an admin's soft delete).
 */
import type { Runtime } from '@agora/common/runtime';
import { runGc } from '../../services/social/src/workers/gc';
import { createSocialContext } from '../../services/social/src/context';
import { ADMIN, bootServer, client, type TestServer } from '../harness/standalone';
import { outbox, registerActor, type Actor } from '../harness/actors';
import { getBytes, upload } from '../harness/uploads';

let server: TestServer;
let api: ReturnType<typeof client>;
let rt: Runtime;
let alice: Actor;
let bob: Actor;
let adminToken: string;

beforeAll(async () => {
  server = await bootServer({ RATE_LIMITING_ENABLED: 'false' });
  api = client(server.url);
  rt = server.services[0]!.runtime!;
  await rt.storage.ensureBucket();
  alice = await registerActor(api, 'alice');
  bob = await registerActor(api, 'bob');
  adminToken = (await api.post<{ token: string }>('/auth/login', ADMIN)).body.token;
});
afterAll(async () => {
  await server?.close();
});

const created = async (actor: Actor, activity: Record<string, unknown>): Promise<string> => {
  const res = await outbox(api, actor, activity);
  if (res.status !== 201)
    throw new Error(`${JSON.stringify(activity)} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.createdId!;
};

const send = (who: Actor, to: string) =>
  upload(server.url, who.token, {
    data: Buffer.from('%PDF-1.4\n% a small document\n'),
    filename: 'notes.pdf',
    contentType: 'application/pdf',
    fields: { to },
  });

async function uploaded(who: Actor, to: string): Promise<string> {
  const res = await send(who, to);
  if (res.status !== 201) throw new Error(`upload to ${to}: ${res.status} ${JSON.stringify(res.body)}`);
  return String((res.body.file as { id: string }).id);
}

async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of rt.storage.list('files/')) keys.push(o.key);
  return keys.sort();
}

/** What anyone can see of a file: the bytes and the metadata, anonymous and as `who`. */
async function readableBy(id: string, who?: Actor): Promise<[number, number]> {
  const path = `/files/${encodeURIComponent(id)}`;
  const opts = who ? { token: who.token } : {};
  return [(await getBytes(server.url, path, opts)).status, (await api.get(`${path}/meta`, opts)).status];
}

describe('an upload addresses only what its uploader may address, as a post does', () => {
  test("another user's circle, another user, and circles or groups that do not exist are 4xx; nothing is stored", async () => {
    const bobsCircle = await created(bob, {
      type: 'Create',
      objectType: 'Circle',
      to: bob.id,
      object: { name: 'Bob only' },
    });
    const bobsOpenCircle = await created(bob, {
      type: 'Create',
      objectType: 'Circle',
      to: '@public',
      object: { name: 'Bob, open' },
    });
    const bobsGroup = await created(bob, {
      type: 'Create',
      objectType: 'Group',
      to: '@public',
      object: { name: 'Bob’s club' },
    });
    const keys = await storedKeys();
    const usage = await rt.repos.files.usageOf(alice.id);
    for (const to of [
      bobsCircle,
      bobsOpenCircle,
      bobsGroup,
      bob.id,
      'circle:0123456789abcdef01234567@social.test',
      'group:0123456789abcdef01234567@social.test',
    ]) {
      const res = await send(alice, to);
      expect([to, res.status >= 400 && res.status < 500, typeof res.body.error]).toEqual([
        to,
        true,
        'string',
      ]);
    }
    expect(await storedKeys()).toEqual(keys);
    expect(await rt.repos.files.usageOf(alice.id)).toEqual(usage);
    expect((await api.get<{ total: number }>('/files', { token: alice.token })).body.total).toBe(usage.files);
  });

  test('her own circle, a circle she belongs to and the public are accepted; members read the file', async () => {
    const frank = await registerActor(api, 'frank');
    const own = await created(alice, {
      type: 'Create',
      objectType: 'Circle',
      to: alice.id,
      object: { name: 'Mine' },
    });
    const bobs = await created(bob, {
      type: 'Create',
      objectType: 'Circle',
      to: bob.id,
      object: { name: 'Ours' },
    });
    await created(bob, { type: 'Add', target: bobs, object: alice.id });
    await created(bob, { type: 'Add', target: bobs, object: frank.id });
    await uploaded(alice, own);
    await uploaded(alice, '@public');
    const shared = await uploaded(alice, bobs);
    // Read as a post to that circle would be: by its members (the uploader always).
    expect(await readableBy(shared, frank)).toEqual([200, 200]);
    expect(await readableBy(shared, alice)).toEqual([200, 200]);
    expect(await readableBy(shared)).toEqual([404, 404]);
  });
});

describe("a deleted account's files are nobody's to read", () => {
  test('deleted by its owner: its unattached public files are 404 at once, and the GC removes their bytes', async () => {
    const dora = await registerActor(api, 'dora');
    const id = await uploaded(dora, '@public');
    expect(await readableBy(id)).toEqual([200, 200]);
    const key = (await rt.repos.files.findLive(id))!.storageKey;
    expect(await storedKeys()).toContain(key);

    expect((await outbox(api, dora, { type: 'Delete', target: dora.id })).status).toBe(201);
    expect(await readableBy(id)).toEqual([404, 404]);
    expect(await readableBy(id, bob)).toEqual([404, 404]);
    expect(await rt.repos.files.findLive(id)).toBeNull();
    await runGc(createSocialContext(rt), new Date());
    expect(await storedKeys()).not.toContain(key);
  });

  test('soft-deleted by an admin: 404 while deleted, readable again once restored', async () => {
    const erin = await registerActor(api, 'erin');
    const id = await uploaded(erin, '@public');
    expect(await readableBy(id)).toEqual([200, 200]);
    const admin = (path: string, method: string) => api.call(method, path, { token: adminToken });
    expect((await admin(`/admin/users/${encodeURIComponent(erin.id)}`, 'DELETE')).status).toBe(200);
    expect(await readableBy(id)).toEqual([404, 404]);
    expect(await readableBy(id, bob)).toEqual([404, 404]);
    expect((await admin(`/admin/users/${encodeURIComponent(erin.id)}/restore`, 'POST')).status).toBe(200);
    expect(await readableBy(id)).toEqual([200, 200]);
  });
});
