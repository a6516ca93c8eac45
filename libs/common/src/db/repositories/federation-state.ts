/** What federation keeps: remote followers of local users (where deliveries go). */
import type { Models, RemoteFollowerDoc } from '../models';
import { followerKey } from '../models/keys';

export type FollowerRecord = RemoteFollowerDoc & { _id?: string };

export class FollowersStore {
  constructor(private readonly models: Models) {}

  /** A remote actor follows a local user (idempotent). */
  async add(userId: string, actorId: string, at: { domain: string; inbox: string }): Promise<void> {
    await this.models.RemoteFollower.updateOne(
      { _id: followerKey(userId, actorId) },
      { $set: { userId, actorId, ...at } },
      { upsert: true },
    );
  }

  async remove(userId: string, actorId: string): Promise<void> {
    await this.models.RemoteFollower.deleteOne({ _id: followerKey(userId, actorId) });
  }

  /** The remote followers of a user (delivery planning): a scan of a small collection. */
  async ofUser(userId: string): Promise<FollowerRecord[]> {
    return this.models.RemoteFollower.find({ userId }).lean<FollowerRecord[]>();
  }
}
