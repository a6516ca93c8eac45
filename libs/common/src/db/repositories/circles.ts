/**
 * Circles: creation, membership (with its reverse index, the `memberships` collection), and the
 * reads audience resolution needs. Every membership change updates the reverse index and tells
 * the listener (read caches keyed on memberships go stale), so no caller can forget either.
 */
import { deletedClause, type DeletedMode } from './listing';
import type { CircleDoc, Models } from '../models';
import { mintId } from '../ids';
import { ObjectStore, type FoundRows, type PageRequest } from './objects';

export type CircleRecord = CircleDoc & { createdAt?: Date; updatedAt?: Date; grants?: string | null };

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

export interface Memberships {
  circles: string[];
  groups: string[];
}

export class CirclesRepository extends ObjectStore<CircleRecord & { id: string }> {
  constructor(
    private readonly models: Models,
    private readonly domain: string,
    private readonly onMembershipChange: MembershipListener = () => Promise.resolve(),
  ) {
    super(models.Circle);
  }

  async create(input: {
    name: string;
    actorId: string;
    type?: string;
    to?: string;
    canReply?: string;
    canReact?: string;
    summary?: string;
    icon?: string;
    members?: Member[];
    /** The group whose membership this circle confers (a group's members circle). */
    grants?: string;
  }): Promise<CircleRecord> {
    const id = mintId('circle', this.domain);
    const members = input.members ?? [];
    const doc = await this.insert({
      id,
      name: input.name,
      actorId: input.actorId,
      type: input.type ?? 'Circle',
      to: input.to ?? '',
      canReply: input.canReply ?? input.to ?? '',
      canReact: input.canReact ?? input.to ?? '',
      summary: input.summary,
      ...(input.icon ? { icon: input.icon } : {}),
      ...(input.grants ? { grants: input.grants } : {}),
      server: `@${this.domain}`,
      url: `https://${this.domain}/circles/${id}`,
      members,
      memberCount: members.length,
    });
    for (const m of members) await this.index(m.id, doc, true);
    if (members.length)
      await this.onMembershipChange(
        id,
        members.map((m) => m.id),
      );
    return doc;
  }

  /** A live circle by id. */
  async findById(id: string): Promise<CircleRecord | null> {
    return this.liveById(id);
  }

  async isMember(circleId: string, memberId: string): Promise<boolean> {
    if (!circleId) return false;
    const c = await this.liveById(circleId);
    return !!c?.members?.some((m) => m.id === memberId);
  }

  async memberIds(circleId: string): Promise<string[]> {
    const c = await this.liveById(circleId);
    return (c?.members ?? []).map((m) => m.id);
  }

  /** The circles and groups a member belongs to (the reverse index: one `_id` read). */
  async membershipsOf(memberId: string): Promise<Memberships> {
    const m = await this.models.Membership.findOne({ _id: memberId }).lean();
    return { circles: m?.circles ?? [], groups: m?.groups ?? [] };
  }

  /**
   * Adds a member once; the count moves only when the member was really added. The membership
   * index decides atomically (`$addToSet` by `_id` reports whether it added), so two concurrent
   * adds push the member once, with nothing but `_id` filters (all FerretDB serves from an index).
   */
  async addMember(circleId: string, member: Member): Promise<boolean> {
    const circle = await this.liveById(circleId);
    if (!circle || circle.members?.some((m) => m.id === member.id)) return false;
    if (!(await this.index(member.id, circle, true))) return false;
    await this.models.Circle.updateOne(
      { _id: circleId },
      { $push: { members: { ...member, addedAt: new Date() } }, $inc: { memberCount: 1 } },
    );
    await this.onMembershipChange(circleId, [member.id]);
    return true;
  }

  /**
   * Removes a member: the membership index decides (atomically) which request removes, then the
   * exact stored element is pulled (FerretDB ignores partial `$pull` conditions).
   */
  async removeMember(circleId: string, memberId: string): Promise<boolean> {
    const circle = await this.byId(circleId);
    const elements = (circle?.members ?? []).filter((m) => m.id === memberId);
    if (!circle || !elements.length) return false;
    if (!(await this.index(memberId, circle, false))) return false;
    for (const element of elements)
      await this.models.Circle.collection.updateOne(
        { _id: circleId } as never,
        {
          $pull: { members: element },
          $inc: { memberCount: -1 },
          $set: { updatedAt: new Date() },
        } as Record<string, unknown>,
      );
    await this.onMembershipChange(circleId, [memberId]);
    return true;
  }

  /**
   * A member's account changed (deleted, restored): every circle they are in, and their own
   * audiences, are stale in the read caches. Reads the reverse index; writes nothing.
   */
  async touchMember(memberId: string): Promise<void> {
    const { circles } = await this.membershipsOf(memberId);
    for (const circleId of circles) await this.onMembershipChange(circleId, [memberId]);
  }

  /** The circle changed (name, audience, icon): cached views of it and its members' audiences are stale. */
  async touch(id: string): Promise<void> {
    const c = await this.byId(id);
    await this.onMembershipChange(
      id,
      (c?.members ?? []).map((m) => m.id),
    );
  }

  /** Sets fields of a circle and makes its cached views stale; the circle after. */
  async update(id: string, set: Record<string, unknown>, unset: string[] = []): Promise<CircleRecord | null> {
    const after = await this.set(id, set, unset);
    if (after)
      await this.onMembershipChange(
        id,
        (after.members ?? []).map((m) => m.id),
      );
    return after;
  }

  /** Deletes a circle (soft); its members lose it from their memberships. */
  async softDeleteCircle(id: string, deletedBy: string): Promise<CircleRecord | null> {
    const before = await this.softDelete(id, { deletedAt: new Date(), deletedBy });
    if (!before) return null;
    const memberIds = (before.members ?? []).map((m) => m.id);
    for (const m of memberIds) await this.index(m, before, false);
    await this.onMembershipChange(id, memberIds);
    return before;
  }

  /** Un-deletes a circle (admin moderation): its members get it back in their memberships. */
  async restoreCircle(id: string): Promise<CircleRecord | null> {
    const after = await this.restore(id);
    if (!after) return null;
    const memberIds = (after.members ?? []).map((m) => m.id);
    for (const m of memberIds) await this.index(m, after, true);
    await this.onMembershipChange(id, memberIds);
    return after;
  }

  /** GET /admin/circles (a scan: admin list). */
  async pageForAdmin(
    q: {
      deleted: DeletedMode;
      type: string;
      serverOnly: boolean;
      actorId?: string | undefined;
      to?: string | undefined;
    },
    req: PageRequest,
  ): Promise<FoundRows<CircleRecord & { id: string }>> {
    const filter: Record<string, unknown> = { ...deletedClause(q.deleted), type: q.type };
    if (q.serverOnly) filter.actorId = `@${this.domain}`;
    else if (q.actorId) filter.actorId = q.actorId;
    if (q.to) filter.to = q.to;
    return this.page(filter, req, { createdAt: -1, _id: -1 });
  }

  /** Deletes circles outright (undoing a failed group create). */
  async removeCircles(ids: string[]): Promise<void> {
    for (const id of ids) {
      const c = await this.byId(id);
      if (!c) continue;
      for (const m of c.members ?? []) await this.index(m.id, c, false);
      await this.hardDelete(id);
    }
  }

  /**
   * A member's copy (name, icon) in every circle they are in (`user.updated`). Each circle's
   * array is rewritten whole (FerretDB 1.24 has no positional `$` updates to rely on), only if
   * nobody changed the membership meanwhile (memberCount and updatedAt unchanged), else re-read
   * and tried again, so a concurrent Add is never lost.
   */
  async refreshMemberCopies(memberId: string, copy: { name?: string; icon?: string }): Promise<void> {
    const { circles } = await this.membershipsOf(memberId);
    for (const id of circles) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const c = await this.byId(id);
        if (!c) break;
        const members = (c.members ?? []).map((m) => (m.id === memberId ? { ...m, ...copy } : m));
        const res = await this.models.Circle.collection.updateOne(
          { _id: id, memberCount: c.memberCount, updatedAt: c.updatedAt } as never,
          { $set: { members } },
        );
        if (res.matchedCount === 1) break;
      }
    }
  }

  /** Live ones (GET /admin/system): a count over the collection, admin only. */
  async countLive(): Promise<number> {
    return this.model.countDocuments({ deletedAt: null });
  }

  /**
   * An actor's live circles of type Circle (GET /users/:id/circles; system circles never), newest
   * first: all of them for the owner, only those addressed to `audiences` for anyone else. A scan,
   * not a hot path.
   */
  async pageCirclesOf(
    ownerId: string,
    audiences: string[] | 'all',
    req: PageRequest,
    fields?: Record<string, number>,
  ): Promise<FoundRows<CircleRecord & { id: string }>> {
    return this.page(
      {
        actorId: ownerId,
        type: 'Circle',
        deletedAt: null,
        ...(audiences === 'all' ? {} : { to: { $in: audiences } }),
      },
      req,
      { createdAt: -1, _id: -1 },
      fields,
    );
  }

  /** GET /circles: local circles of a type and the given audiences, newest or most reacted first (a scan). */
  async pageListed(
    f: { type: string; audiences: string[] },
    req: PageRequest,
    sort: 'createdAt' | 'reacts',
    fields?: Record<string, number>,
  ): Promise<FoundRows<CircleRecord & { id: string }>> {
    return this.page(
      { originDomain: null, type: f.type, to: { $in: f.audiences }, deletedAt: null },
      req,
      sort === 'reacts' ? { reactCount: -1, memberCount: -1, createdAt: -1 } : { createdAt: -1 },
      fields,
    );
  }

  /** All live circles with their owners and members (the poll worker's targets): a scan. */
  async allWithMembers(): Promise<Array<Pick<CircleRecord, 'id' | 'actorId' | 'members'>>> {
    return this.findAll({ deletedAt: null }, { id: 1, actorId: 1, members: 1 });
  }

  /**
   * The owners of the live circles (type `Circle`, not system or role circles) among `circleIds`
   * that hold `memberId` now (checked on each circle's own members, so ids read earlier, such as
   * a post's fan-out circles, never name a circle the member has left), each once, from at most
   * `limit` circles: `_id` reads, no scan.
   */
  async ownersOfCirclesHolding(memberId: string, circleIds: string[], limit: number): Promise<string[]> {
    const live = await this.liveByIds(circleIds.slice(0, limit));
    const holding = [...live.values()].filter(
      (c) => c.type === 'Circle' && (c.members ?? []).some((m) => m.id === memberId),
    );
    return [...new Set(holding.map((c) => c.actorId))];
  }

  /** Moves the read high-water mark forward only (`$max`: races cannot rewind it). */
  async setLastSeen(id: string, at: Date): Promise<Date | null> {
    await this.models.Circle.updateOne({ _id: id }, { $max: { lastSeenAt: at } });
    const c = await this.byId(id);
    return c?.lastSeenAt ?? null;
  }

  /** Adds or removes a circle (and the group it grants) in a member's index; whether it changed. */
  private async index(memberId: string, circle: CircleRecord, add: boolean): Promise<boolean> {
    const op = add ? '$addToSet' : '$pull';
    // The document first (two racing upserts would collide on `_id`), then the atomic change.
    if (add)
      await this.models.Membership.create({ _id: memberId, circles: [], groups: [] }).catch(
        (err: { code?: number }) => {
          if (err.code !== 11000) throw err;
        },
      );
    const res = await this.models.Membership.updateOne({ _id: memberId }, { [op]: { circles: circle.id } });
    if (circle.grants)
      await this.models.Membership.updateOne({ _id: memberId }, { [op]: { groups: circle.grants } });
    return res.modifiedCount === 1;
  }
}
