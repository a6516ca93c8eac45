/**
 * Moves a database written before ADR 0005 to its shape: documents keyed by an ObjectId get their
 * string key (the same document under `_id = id`, or the composite key of their kind); derived
 * lists are built once. Idempotent and cheap on a database already moved: it looks for work with
 * one query per collection. Run once at start by the service that owns the data (social).
 */
import { Types } from 'mongoose';
import type { Logger } from '../logger';
import type { Models } from './models';
import { followerKey, reactKey } from './models/keys';
import type { Repositories } from './index';
import { runOnce } from './once';
import type { ListAppend, ListEntry } from './lists/store';
import { followersList } from './repositories/federation-state';

type Doc = Record<string, unknown> & { _id: unknown };

const KEYS: Array<[keyof Models, (d: Doc) => string | undefined]> = [
  ['Activity', (d) => d.id as string],
  ['Post', (d) => d.id as string],
  ['Reply', (d) => d.id as string],
  ['React', (d) => reactKey(String(d.target), String(d.actorId))],
  ['Group', (d) => d.id as string],
  ['Page', (d) => d.id as string],
  ['Bookmark', (d) => d.id as string],
  ['Flag', (d) => d.id as string],
  ['Notification', (d) => d.id as string],
  ['Invite', (d) => d.id as string],
  ['Setting', (d) => d.name as string],
  ['RemoteFollower', (d) => followerKey(String(d.userId), String(d.actorId))],
];

export async function migrateKeys(models: Models, logger: Logger): Promise<void> {
  // Done once per database: the search for ObjectId keys below scans every collection on
  // FerretDB (a `$type` filter is not pushed down), which took 86 s at start on 100k posts.
  await runOnce(models, MIGRATION_ID, () => moveKeys(models, logger));
}

async function moveKeys(models: Models, logger: Logger): Promise<void> {
  for (const [name, keyOf] of KEYS) {
    const coll = models[name].collection;
    let moved = 0;
    for (;;) {
      const batch = (await coll
        .find({ _id: { $type: 'objectId' } })
        .limit(200)
        .toArray()) as Doc[];
      let progressed = false;
      for (const doc of batch) {
        const key = keyOf(doc);
        if (!key) continue; // nothing to key it by: left as it is
        progressed = true;
        // The copy cannot be inserted first: it would collide with the original on the
        // collection's other unique indexes (`id`, `name`, …), and the original was then
        // deleted with no copy. So: already moved → drop the original; else delete, then
        // insert the copy (the original goes back if that insert fails).
        if (await coll.findOne({ _id: key } as never, { projection: { _id: 1 } })) {
          await coll.deleteOne({ _id: doc._id as Types.ObjectId });
          continue;
        }
        await coll.deleteOne({ _id: doc._id as Types.ObjectId });
        try {
          await coll.insertOne({ ...doc, _id: key } as never);
        } catch (err) {
          await coll.insertOne(doc as never).catch(() => undefined);
          throw err;
        }
        moved++;
      }
      // Only documents with no key left (or none at all): searching again would find them again.
      if (!progressed) break;
    }
    if (moved) logger.info({ collection: coll.collectionName, moved }, 'documents moved to string keys');
  }
}

/** Names the migration to ADR 0005's keys and lists (v2: public counts read from dotted tags). */
export const MIGRATION_ID = 'adr-0005-keys-and-lists-v2';

/**
 * A list migration: builds lists from documents stored before the lists existed, once per
 * database (`runOnce`). Each list is dropped and written again, so a run cut short and run again
 * counts nothing twice. `rows` reads the documents oldest first; `append` places one of them (in
 * no list: undefined).
 */
interface ListMigration<R> {
  id: string;
  rows(): Promise<R[]>;
  append(row: R): ListAppend | undefined;
}

async function buildListsOnce<R>(
  models: Models,
  repos: Repositories,
  logger: Logger,
  m: ListMigration<R>,
): Promise<void> {
  await runOnce(models, m.id, async () => {
    const lists = new Map<string, ListAppend[]>();
    for (const row of await m.rows()) {
      const a = m.append(row);
      if (a) lists.set(a.key, [...(lists.get(a.key) ?? []), a]);
    }
    for (const [key, appends] of lists) {
      await repos.lists.drop(key);
      await repos.lists.appendAll(appends);
    }
    if (lists.size) logger.info({ migration: m.id, lists: lists.size }, 'lists built');
  });
}

/** Names the migration that gave every user with remote followers their followers list. */
export const FOLLOWER_LISTS_MIGRATION_ID = 'follower-lists-v1';

type FollowerRow = { userId: string; actorId: string; createdAt?: Date };

/** The remote followers list of every local user who has some (`followers:<user>`). */
export async function migrateFollowerLists(
  models: Models,
  repos: Repositories,
  logger: Logger,
): Promise<void> {
  await buildListsOnce<FollowerRow>(models, repos, logger, {
    id: FOLLOWER_LISTS_MIGRATION_ID,
    rows: () =>
      models.RemoteFollower.find({}, { userId: 1, actorId: 1, createdAt: 1 })
        .sort({ createdAt: 1 })
        .lean<FollowerRow[]>(),
    append: (r) => ({
      key: followersList(r.userId),
      entries: [listEntry(r.actorId, r.createdAt, undefined)],
    }),
  });
}

function listEntry(id: string, at: Date | undefined, by: string | undefined): ListEntry {
  return { id, at: at ? new Date(at) : new Date(0), ...(by ? { by } : {}) };
}
