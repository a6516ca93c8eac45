/**
 * Circles over the engine port (ADR 0013): creation, membership with its reverse index (one
 * `memberships` row per circle and member), and the reads audience resolution needs. Every
 * membership change updates the reverse index and tells the listener (read caches keyed on
 * memberships go stale), so no caller can forget either.
 *
 * Two documents, no transaction: the circle's `members` is the truth and is written first (a
 * compare-and-set on its revision `__v`, so of N concurrent adds of one member exactly one adds
 * and moves `memberCount`); the reverse index row follows. A crash between the two leaves a row
 * missing (after an add) or left over (after a remove); every add and remove of that member
 * writes the row to agree with the circle, whether or not it changed the circle, so the next
 * one repairs it. A circle deleted (or restored) halfway is repaired by deleting it again.
 */
import { DuplicateKeyError, type Engine, type Filter, type Sort, type Update } from '../engine/port';
import { mintId } from '../ids';
import { ObjectCollection, shownRow, type FoundRows, type PageRequest } from './object-collection';
import { deletedFilter } from './admin-lists';
import type { DeletedMode } from './listing';
import { CircleMembers } from './circle-members';
import { applySnapshot, cachedCircle, type CachedOrigin, type MemberSnapshot } from './cached-membership';
import {
  CIRCLES,
  type CircleRecord,
  type Member,
  type StoredCircle,
  type StoredMember,
} from './circle-record';

export {
  CIRCLES,
  MEMBERSHIPS,
  type CircleRecord,
  type Member,
  type StoredMember,
  type MembershipRow,
} from './circle-record';

/** Told after a membership changed (caches keyed on memberships go stale). */
export type MembershipListener = (circleId: string, memberIds: string[]) => Promise<void>;

export interface Memberships {
  circles: string[];
  groups: string[];
}

/** Concurrent member changes of one circle retry; each failed try means another one landed. */
const MAX_TRIES = 100;

const holds = (c: Pick<CircleRecord, 'members'>, memberId: string) =>
  (c.members ?? []).some((m) => m.id === memberId);
const idsOf = (c: Pick<CircleRecord, 'members'>) => (c.members ?? []).map((m) => m.id);

export class CirclesStore extends ObjectCollection<StoredCircle> {
  private readonly index: CircleMembers;

  constructor(
    engine: Engine,
    private readonly domain: string,
    private readonly onMembershipChange: MembershipListener = () => Promise.resolve(),
  ) {
    super(engine, CIRCLES);
    this.index = new CircleMembers(engine);
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
    const now = new Date();
    const members: StoredMember[] = (input.members ?? []).map((m) => ({ ...m, addedAt: now }));
    const doc = await this.insert({
      id,
      objectType: 'Circle',
      name: input.name,
      actorId: input.actorId,
      type: input.type ?? 'Circle',
      to: input.to ?? '',
      canReply: input.canReply ?? input.to ?? '',
      canReact: input.canReact ?? input.to ?? '',
      ...(input.summary !== undefined ? { summary: input.summary } : {}),
      ...(input.icon ? { icon: input.icon } : {}),
      grants: input.grants ?? null,
      server: `@${this.domain}`,
      url: `https://${this.domain}/circles/${id}`,
      originDomain: null,
      members,
      memberCount: members.length,
      reactCount: 0,
      replyCount: 0,
      reactSummary: {},
      lastSeenAt: null,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
      __v: 0,
    });
    await this.index.put(doc, idsOf(doc));
    if (members.length) await this.onMembershipChange(id, idsOf(doc));
    return doc;
  }

  /** A live circle by id. */
  async findById(id: string): Promise<CircleRecord | null> {
    return this.liveById(id);
  }

  async isMember(circleId: string, memberId: string): Promise<boolean> {
    if (!circleId) return false;
    const c = await this.liveById(circleId);
    return !!c && holds(c, memberId);
  }

  async memberIds(circleId: string): Promise<string[]> {
    const c = await this.liveById(circleId);
    return c ? idsOf(c) : [];
  }

  /** The circles and groups a member belongs to (the reverse index: one indexed read). */
  async membershipsOf(memberId: string): Promise<Memberships> {
    return this.index.of(memberId);
  }

  /**
   * Adds a member once: of concurrent adds of one member, exactly one changes the circle and
   * moves the count (true); the others, and adds of a member already there, answer false after
   * making the reverse index agree.
   */
  async addMember(circleId: string, member: Member): Promise<boolean> {
    const outcome = await this.changeMembers(circleId, true, (c) =>
      holds(c, member.id)
        ? null
        : { $push: { members: { ...member, addedAt: new Date() } }, $inc: { memberCount: 1 } },
    );
    if (!outcome) return false;
    if (holds(outcome.after, member.id)) await this.index.put(outcome.after, [member.id]);
    if (outcome.changed) await this.onMembershipChange(circleId, [member.id]);
    return outcome.changed;
  }

  /** Removes a member (exactly one of concurrent removes: true); the reverse index follows. */
  async removeMember(circleId: string, memberId: string): Promise<boolean> {
    const outcome = await this.changeMembers(circleId, false, (c) => {
      const n = (c.members ?? []).filter((m) => m.id === memberId).length;
      return n ? { $pull: { members: { id: memberId } }, $inc: { memberCount: -n } } : null;
    });
    if (!outcome) return false;
    if (!holds(outcome.after, memberId)) await this.index.drop(circleId, [memberId]);
    if (outcome.changed) await this.onMembershipChange(circleId, [memberId]);
    return outcome.changed;
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
    await this.onMembershipChange(id, c ? idsOf(c) : []);
  }

  /** Sets fields of a circle and makes its cached views stale; the circle after. */
  async update(id: string, set: Record<string, unknown>, unset: string[] = []): Promise<CircleRecord | null> {
    const after = await this.set(id, { ...set, updatedAt: new Date() }, unset);
    if (after) await this.onMembershipChange(id, idsOf(after));
    return after;
  }

  /**
   * Deletes a circle (soft); its members lose it from their memberships. Deleting a deleted
   * circle again answers null and finishes what a crash may have left (its reverse rows).
   */
  async softDeleteCircle(id: string, deletedBy: string): Promise<CircleRecord | null> {
    const before = await this.softDelete(id, { deletedAt: new Date(), deletedBy, updatedAt: new Date() });
    if (!before) {
      const c = await this.byId(id);
      if (c?.deletedAt) await this.index.drop(id, idsOf(c));
      return null;
    }
    await this.index.drop(id, idsOf(before));
    await this.onMembershipChange(id, idsOf(before));
    return before;
  }

  /**
   * Un-deletes a circle (admin moderation): its members get it back in their memberships. The
   * rows first: a crash before the restore leaves rows of a deleted circle, which a retry of
   * the restore (or of the delete) settles.
   */
  async restoreCircle(id: string): Promise<CircleRecord | null> {
    const current = await this.byId(id);
    if (!current?.deletedAt) return null;
    await this.index.put(current, idsOf(current));
    const after = await this.restore(id, { updatedAt: new Date() });
    if (!after) return null;
    await this.onMembershipChange(id, idsOf(after));
    return after;
  }

  /** GET /admin/circles. */
  async pageForAdmin(
    q: {
      deleted: DeletedMode;
      type: string;
      serverOnly: boolean;
      actorId?: string | undefined;
      to?: string | undefined;
    },
    req: PageRequest,
  ): Promise<FoundRows<CircleRecord>> {
    const filter: Filter = { ...deletedFilter(q.deleted), type: q.type };
    if (q.serverOnly) filter.actorId = `@${this.domain}`;
    else if (q.actorId) filter.actorId = q.actorId;
    if (q.to) filter.to = q.to;
    return this.page(filter, req, [['createdAt', -1]]);
  }

  /** Deletes circles outright (undoing a failed group create): the reverse rows first. */
  async removeCircles(ids: string[]): Promise<void> {
    for (const id of ids) {
      const c = await this.byId(id);
      if (!c) continue;
      await this.index.drop(id, idsOf(c));
      await this.hardDelete(id);
    }
  }

  /**
   * A member's copy (name, icon) in every circle they are in (`user.updated`): each circle's
   * members rewritten by a compare-and-set on their revision, so a concurrent add or remove is
   * never undone (the loser reads again).
   */
  async refreshMemberCopies(memberId: string, copy: { name?: string; icon?: string }): Promise<void> {
    const { circles } = await this.membershipsOf(memberId);
    for (const id of circles)
      await this.changeMembers(id, false, (c) =>
        holds(c, memberId)
          ? { $set: { members: (c.members ?? []).map((m) => (m.id === memberId ? { ...m, ...copy } : m)) } }
          : null,
      );
  }

  /**
   * Another server's circle as cached here (`originDomain` set; created on first mention), with
   * the members of this server it holds as of the origin's revision (cached-membership.ts); the
   * reverse index and the listener follow, as for any member change. Null when there is no live
   * cached circle of that origin by that id (deleted by its origin, or an id of another server).
   */
  async syncCached(
    origin: CachedOrigin,
    snapshot: MemberSnapshot,
  ): Promise<{ circle: CircleRecord; added: string[]; removed: string[] } | null> {
    await this.cache(origin);
    let moved = { added: [] as string[], removed: [] as string[] };
    const outcome = await this.changeMembers(origin.id, true, (c) => {
      if (c.originDomain !== origin.originDomain) return null;
      const next = applySnapshot(c, snapshot, new Date());
      moved = next ?? { added: [], removed: [] };
      const renamed = origin.name && origin.name !== c.name ? { name: origin.name } : {};
      return next
        ? {
            $set: {
              members: next.members,
              departed: next.departed,
              allRev: next.allRev,
              memberCount: next.members.length,
              ...renamed,
            },
          }
        : null;
    });
    if (!outcome || outcome.after.originDomain !== origin.originDomain) return null;
    // Every sync states what the circle holds, so a repeat repairs rows a crash left behind.
    await this.index.put(outcome.after, idsOf(outcome.after));
    await this.index.drop(origin.id, moved.removed);
    const touched = [...moved.added, ...moved.removed];
    if (outcome.changed && touched.length) await this.onMembershipChange(origin.id, touched);
    return { circle: outcome.after, ...moved };
  }

  private async cache(origin: CachedOrigin) {
    if (await this.byId(origin.id)) return;
    try {
      await this.insert(cachedCircle(origin, new Date()));
    } catch (err) {
      // A concurrent first mention cached it.
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  /** Every circle an account owns, deleted ones too, with their members (account deletion). */
  async everOwnedBy(actorId: string): Promise<Array<Pick<CircleRecord, 'id' | 'type' | 'members'>>> {
    return this.rows.find({ actorId }, { fields: ['id', 'type', 'members'] });
  }

  /** Live ones (GET /admin/system). */
  async countLive(): Promise<number> {
    return this.rows.count({ deletedAt: null });
  }

  /**
   * An actor's live circles of type Circle (GET /users/:id/circles; system circles never), newest
   * first: all of them for the owner, only those addressed to `audiences` for anyone else.
   */
  async pageCirclesOf(
    ownerId: string,
    audiences: string[] | 'all',
    req: PageRequest,
    fields?: readonly string[],
  ): Promise<FoundRows<CircleRecord>> {
    const filter: Filter = { actorId: ownerId, type: 'Circle', deletedAt: null };
    if (audiences !== 'all') filter.to = { $in: audiences };
    return this.pageShown(filter, req, [['createdAt', -1]], fields);
  }

  /** GET /circles: local circles of a type and the given audiences, newest or most reacted first. */
  async pageListed(
    f: { type: string; audiences: string[] },
    req: PageRequest,
    sort: 'createdAt' | 'reacts',
    fields?: readonly string[],
  ): Promise<FoundRows<CircleRecord>> {
    return this.pageShown(
      { originDomain: null, type: f.type, to: { $in: f.audiences }, deletedAt: null },
      req,
      sort === 'reacts'
        ? [
            ['reactCount', -1],
            ['memberCount', -1],
            ['createdAt', -1],
          ]
        : [['createdAt', -1]],
      fields,
    );
  }

  /** All live circles with their owners and members (the poll worker's targets). */
  async allWithMembers(): Promise<Array<Pick<CircleRecord, 'id' | 'actorId' | 'members' | 'originDomain'>>> {
    return this.rows.find({ deletedAt: null }, { fields: ['id', 'actorId', 'members', 'originDomain'] });
  }

  /** The ids of the live circles an account owns (account deletion). */
  async liveIdsOwnedBy(actorId: string): Promise<string[]> {
    const rows = await this.rows.find({ actorId, deletedAt: null }, { fields: ['id'] });
    return rows.map((r) => r.id);
  }

  /**
   * The owners of the live circles (type `Circle`, not system or role circles) among `circleIds`
   * that hold `memberId` now (checked on each circle's own members, so ids read earlier, such as
   * a post's fan-out circles, never name a circle the member has left), each once, from at most
   * `limit` circles: one read by key.
   */
  async ownersOfCirclesHolding(memberId: string, circleIds: string[], limit: number): Promise<string[]> {
    const live = await this.liveByIds(circleIds.slice(0, limit));
    const holding = [...live.values()].filter((c) => c.type === 'Circle' && holds(c, memberId));
    return [...new Set(holding.map((c) => c.actorId))];
  }

  /** Moves the read high-water mark forward only (`$max`: races cannot rewind it). */
  async setLastSeen(id: string, at: Date): Promise<Date | null> {
    const after = await this.rows.findOneAndUpdate({ _id: id }, { $max: { lastSeenAt: at } });
    return after?.lastSeenAt ?? null;
  }

  /** A page; with `fields`, only those (lists show no key). */
  private async pageShown(
    filter: Filter,
    req: PageRequest,
    sort: Sort,
    fields?: readonly string[],
  ): Promise<FoundRows<CircleRecord>> {
    const found = await this.page(filter, req, sort, fields);
    return fields ? { total: found.total, items: found.items.map(shownRow) } : found;
  }

  /**
   * One change of a circle's members, decided on the circle as read and written only if its
   * revision is still the one read (else read again). `live`: only while the circle is not
   * deleted. Null when there is no such circle; else the circle after, and whether this call
   * changed it (`decide` answering null: nothing to change).
   */
  private async changeMembers(
    id: string,
    live: boolean,
    decide: (c: StoredCircle) => Update | null,
  ): Promise<{ after: StoredCircle; changed: boolean } | null> {
    for (let i = 0; i < MAX_TRIES; i++) {
      const c = live ? await this.liveById(id) : await this.byId(id);
      if (!c) return null;
      const update = decide(c);
      if (!update) return { after: c, changed: false };
      const after = await this.rows.findOneAndUpdate(
        { _id: id, __v: c.__v ?? null, ...(live ? { deletedAt: null } : {}) },
        { ...update, $inc: { ...update.$inc, __v: 1 }, $set: { ...update.$set, updatedAt: new Date() } },
      );
      if (after) return { after, changed: true };
    }
    throw new Error(`circle ${id}: members changed ${MAX_TRIES} times while one change was tried`);
  }
}
