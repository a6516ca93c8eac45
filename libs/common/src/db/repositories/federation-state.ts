/**
 * What federation keeps: remote followers of local users (where deliveries go). One row per
 * (local user, remote actor), keyed `<user>|<actor>` (`followerKey`), so a follow, an unfollow
 * and "is X a follower of Y" are primary-key operations, and a user's followers (delivery
 * planning) are one read of the `(userId, actorId)` index. Written over the engine port (ADR 0013).
 */
import type { Collection, CollectionSpec, Engine } from '../engine/port';

export interface FollowerRecord {
  /** `<userId>|<actorId>`. */
  _id: string;
  userId: string;
  actorId: string;
  domain: string;
  inbox: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The key of one remote follower of a local user. */
export const followerKey = (userId: string, actorId: string): string => `${userId}|${actorId}`;

export const REMOTE_FOLLOWERS: CollectionSpec = {
  name: 'remote_followers',
  indexes: [
    {
      fields: [
        ['userId', 1],
        ['actorId', 1],
      ],
      serves: 'ofUser: the remote followers of a user (delivery planning)',
    },
    { fields: [['actorId', 1]], serves: 'removeActor: the follows of a remote account that is gone' },
  ],
  dates: ['createdAt', 'updatedAt'],
};

export class FollowersStore {
  private readonly rows: Collection<FollowerRecord>;

  constructor(engine: Engine) {
    this.rows = engine.collection<FollowerRecord>(REMOTE_FOLLOWERS);
  }

  /** A remote actor follows a local user (idempotent: a repeated follow updates the inbox). */
  async add(userId: string, actorId: string, at: { domain: string; inbox: string }): Promise<void> {
    const now = new Date();
    await this.rows.updateOne(
      { _id: followerKey(userId, actorId) },
      {
        $set: { userId, actorId, domain: at.domain, inbox: at.inbox, updatedAt: now },
        $setOnInsert: { createdAt: now },
      },
      { upsert: true },
    );
  }

  async remove(userId: string, actorId: string): Promise<void> {
    await this.rows.deleteOne({ _id: followerKey(userId, actorId) });
  }

  /** A remote account is gone: none of its follows stays. */
  async removeActor(actorId: string): Promise<void> {
    await this.rows.deleteMany({ actorId });
  }

  /** Whether `actorId` follows the local user `userId`. */
  async isFollower(userId: string, actorId: string): Promise<boolean> {
    return (await this.rows.findOne({ _id: followerKey(userId, actorId) }, { fields: ['_id'] })) !== null;
  }

  /** The remote followers of a user (delivery planning), in actor order. */
  async ofUser(userId: string): Promise<FollowerRecord[]> {
    return this.rows.find({ userId }, { sort: [['actorId', 1]] });
  }
}
