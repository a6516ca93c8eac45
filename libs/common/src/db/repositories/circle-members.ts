/**
 * The reverse index of circle membership (`memberships`, one row per circle and member): for one
 * member (local user, remote user or server), the circles they are in and the groups those
 * circles make them a member of. Audience resolution and fan-out read it with one indexed query
 * instead of looking into every circle's members. Only CirclesStore writes it, after the
 * circle itself; each write states what the circle holds (idempotent), so repeating one repairs
 * a write lost to a crash.
 */
import type { Collection, Engine } from '../engine/port';
import { MEMBERSHIPS, membershipKey, type CircleRecord, type MembershipRow } from './circle-record';

export class CircleMembers {
  private readonly rows: Collection<MembershipRow>;

  constructor(engine: Engine) {
    this.rows = engine.collection<MembershipRow>(MEMBERSHIPS);
  }

  /** The circle holds these members (and confers its group on them). */
  async put(circle: Pick<CircleRecord, 'id' | 'grants'>, memberIds: readonly string[]): Promise<void> {
    for (const memberId of memberIds)
      await this.rows.updateOne(
        { _id: membershipKey(circle.id, memberId) },
        { $set: { memberId, circleId: circle.id, group: circle.grants ?? null } },
        { upsert: true },
      );
  }

  /** The circle no longer holds these members (or is gone). */
  async drop(circleId: string, memberIds: readonly string[]): Promise<void> {
    for (const memberId of memberIds) await this.rows.deleteOne({ _id: membershipKey(circleId, memberId) });
  }

  async of(memberId: string): Promise<{ circles: string[]; groups: string[] }> {
    const rows = await this.rows.find({ memberId }, { sort: [['circleId', 1]] });
    const groups = rows.map((r) => r.group).filter((g): g is string => !!g);
    return { circles: rows.map((r) => r.circleId), groups: [...new Set(groups)] };
  }
}
