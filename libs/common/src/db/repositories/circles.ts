/** Circles repository (the part the foundation needs: system and server circles, membership). */
import type { Models, CircleDoc } from '../models';
import { mintId } from '../ids';

export type CircleRecord = CircleDoc & { createdAt?: Date; updatedAt?: Date };

export interface Member {
  id: string;
  type?: string;
  name?: string;
  icon?: string;
  url?: string;
  inbox?: string;
  outbox?: string;
  server?: string;
}

/** Told after a membership changed (caches keyed on memberships go stale). */
export type MembershipListener = (circleId: string, memberIds: string[]) => Promise<void>;

export class CirclesRepository {
  constructor(
    private readonly models: Models,
    private readonly domain: string,
    private readonly onMembershipChange: MembershipListener = () => Promise.resolve(),
  ) {}

  async create(input: {
    name: string;
    actorId: string;
    type?: string;
    to?: string;
    canReply?: string;
    canReact?: string;
    summary?: string;
    members?: Member[];
  }): Promise<CircleRecord> {
    const id = mintId('circle', this.domain);
    const members = input.members ?? [];
    const doc = await this.models.Circle.create({
      id,
      name: input.name,
      actorId: input.actorId,
      type: input.type ?? 'Circle',
      to: input.to ?? '',
      canReply: input.canReply ?? input.to ?? '',
      canReact: input.canReact ?? input.to ?? '',
      summary: input.summary,
      server: `@${this.domain}`,
      url: `https://${this.domain}/circles/${id}`,
      members,
      memberCount: members.length,
    });
    if (members.length)
      await this.onMembershipChange(
        id,
        members.map((m) => m.id),
      );
    return doc.toObject();
  }

  async findById(id: string): Promise<CircleRecord | null> {
    return this.models.Circle.findOne({ id: String(id), deletedAt: null }).lean<CircleRecord>();
  }

  async isMember(circleId: string, memberId: string): Promise<boolean> {
    if (!circleId) return false;
    return (
      (await this.models.Circle.countDocuments({
        id: circleId,
        'members.id': memberId,
        deletedAt: null,
      }).limit(1)) > 0
    );
  }

  /**
   * Adds a member once; the count moves only when the member was really added. The guard is
   * `$nor` because FerretDB 1.24 evaluates `'members.id': { $ne }` wrongly on arrays of two or
   * more members (so do `$nin` and `$not`); `$nor` is right on both FerretDB and MongoDB.
   */
  async addMember(circleId: string, member: Member): Promise<boolean> {
    const res = await this.models.Circle.updateOne(
      { id: circleId, $nor: [{ 'members.id': member.id }] },
      { $push: { members: { ...member, addedAt: new Date() } }, $inc: { memberCount: 1 } },
    );
    if (res.modifiedCount !== 1) return false;
    await this.onMembershipChange(circleId, [member.id]);
    return true;
  }

  /**
   * Removes a member. FerretDB 1.24 matches nothing with a `'members.id': value` update filter
   * and ignores partial `$pull` conditions, so this pulls the exact stored element under an
   * `$in` guard (which both FerretDB and MongoDB evaluate); the count moves once per removal.
   */
  async removeMember(circleId: string, memberId: string): Promise<boolean> {
    const { Circle } = this.models;
    const circle = await Circle.findOne({ id: circleId }, { members: 1 }).lean();
    let removed = false;
    for (const element of (circle?.members ?? []).filter((m) => m.id === memberId)) {
      const res = await Circle.collection.updateOne({ id: circleId, 'members.id': { $in: [memberId] } }, {
        $pull: { members: element },
        $inc: { memberCount: -1 },
        $set: { updatedAt: new Date() },
      } as Record<string, unknown>);
      removed ||= res.modifiedCount === 1;
    }
    if (removed) await this.onMembershipChange(circleId, [memberId]);
    return removed;
  }
}
