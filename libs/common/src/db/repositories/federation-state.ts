/**
 * What federation keeps: remote followers of local users (where deliveries go). One row per
 * (user, remote actor), keyed `<user>|<actor>`, and each user's followers as a list
 * (`followers:<user>`, entries by actor) so delivery planning reads that user's rows by `_id`
 * instead of scanning every user's (FerretDB pushes down no `userId` filter).
 */
import type { ListStore } from '../lists/store';
import type { Models, RemoteFollowerDoc } from '../models';
import { followerKey } from '../models/keys';

export type FollowerRecord = RemoteFollowerDoc & { _id?: string };

export const followersList = (userId: string): string => `followers:${userId}`;

export class FollowersStore {
  constructor(
    private readonly models: Models,
    private readonly lists: ListStore,
  ) {}

  /** A remote actor follows a local user (idempotent: a repeated follow updates the inbox). */
  async add(userId: string, actorId: string, at: { domain: string; inbox: string }): Promise<void> {
    const res = await this.models.RemoteFollower.updateOne(
      { _id: followerKey(userId, actorId) },
      { $set: { userId, actorId, ...at } },
      { upsert: true },
    );
    if (res.upsertedCount) await this.lists.append(followersList(userId), [{ id: actorId, at: new Date() }]);
  }

  async remove(userId: string, actorId: string): Promise<void> {
    const res = await this.models.RemoteFollower.deleteOne({ _id: followerKey(userId, actorId) });
    if (!res.deletedCount) return;
    // The entry's own time locates its bucket (the row's `createdAt` is a few ms apart from it).
    for await (const e of this.lists.newest([followersList(userId)]))
      if (e.id === actorId) await this.lists.remove(followersList(userId), actorId, e.at);
  }

  /** The remote followers of a user (delivery planning): their list, then each row by `_id`. */
  async ofUser(userId: string): Promise<FollowerRecord[]> {
    const actors: string[] = [];
    for await (const e of this.lists.newest([followersList(userId)])) actors.push(e.id);
    const rows = await Promise.all(
      actors.map((a) =>
        this.models.RemoteFollower.findOne({ _id: followerKey(userId, a) }).lean<FollowerRecord>(),
      ),
    );
    return rows.filter((r): r is FollowerRecord => r !== null);
  }
}
