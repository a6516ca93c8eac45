/**
 * Membership of a cached remote circle (spec: `originDomain` set): another server's circle as
 * this server keeps it, holding only this server's members (its users, or the server itself,
 * `@<domain>`). The origin numbers every state of its circle's members (its revision); every
 * message about the circle says which of the ids in its scope are members as of a revision. A
 * member's state here moves only to a newer revision, so messages applied in any order (a retried
 * Add after a Remove, a pull racing a push) end in the state of the newest one: an older Add never
 * re-adds a member a newer Remove took out.
 */
import type { StoredCircle, StoredMember } from './circle-record';

/** A member that left, and as of which revision of the origin's circle. */
export type Departed = {
  id: string;
  rev: number;
};

/** What one message says: as of `rev`, of the ids in `scope`, those in `present` are members. */
export interface MemberSnapshot {
  rev: number;
  present: readonly string[];
  /** The ids the message speaks for; `all`: every member this server holds (a push names all). */
  scope: readonly string[] | 'all';
}

export interface CachedMembers {
  members: StoredMember[];
  departed: Departed[];
  /**
   * The newest revision a message of scope `all` spoke for: as of it, every id it did not name
   * was no member, so an older message naming one adds no one (without this, an id never seen
   * here has no revision to compare, and an older Add after a newer full snapshot re-adds it).
   */
  allRev: number;
}

/** `@<domain>` is a server, `@<user>@<domain>` a person. */
const kindOf = (id: string) => (id.lastIndexOf('@') === 0 ? 'Service' : 'Person');

/**
 * The members after applying a snapshot, with who joined and who left; null when it changes
 * nothing (every id in scope is known at this revision or a newer one).
 */
export function applySnapshot(
  current: { members?: StoredMember[] | null; departed?: Departed[] | null; allRev?: number | null },
  s: MemberSnapshot,
  now: Date,
): (CachedMembers & { added: string[]; removed: string[] }) | null {
  const members = new Map((current.members ?? []).map((m) => [m.id, m]));
  const departed = new Map((current.departed ?? []).map((d) => [d.id, d]));
  const present = new Set(s.present);
  const scope = s.scope === 'all' ? new Set([...present, ...members.keys()]) : new Set(s.scope);
  const added: string[] = [];
  const removed: string[] = [];
  const allRev = current.allRev ?? -1;
  let moved = s.scope === 'all' && s.rev > allRev;
  for (const id of scope) {
    const known = Math.max(members.get(id)?.rev ?? -1, departed.get(id)?.rev ?? -1, allRev);
    if (s.rev <= known) continue;
    moved = true;
    if (present.has(id)) {
      const was = members.get(id);
      if (!was) added.push(id);
      members.set(id, { ...(was ?? { id, type: kindOf(id), addedAt: now }), rev: s.rev });
      departed.delete(id);
    } else {
      if (members.delete(id)) removed.push(id);
      departed.set(id, { id, rev: s.rev });
    }
  }
  if (!moved) return null;
  return {
    members: [...members.values()],
    departed: [...departed.values()],
    allRev: s.scope === 'all' ? Math.max(allRev, s.rev) : allRev,
    added,
    removed,
  };
}

/** Which remote circle is cached: its id and owner on the origin, its name there. */
export interface CachedOrigin {
  id: string;
  actorId: string;
  name: string;
  originDomain: string;
  /** A group's members circle makes its members the group's (groups.ts of social's inbound). */
  grants?: string;
}

/** A cached circle as first stored: no members yet, readable by its members only. */
export function cachedCircle(origin: CachedOrigin, now: Date): Omit<StoredCircle, '_id'> {
  return {
    id: origin.id,
    objectType: 'Circle',
    name: origin.name || origin.id,
    actorId: origin.actorId,
    type: 'Circle',
    // Owner only: members read it as members (circle-access.ts), no one else.
    to: '',
    canReply: '',
    canReact: '',
    grants: origin.grants ?? null,
    server: `@${origin.originDomain}`,
    url: null,
    originDomain: origin.originDomain,
    members: [],
    departed: [],
    allRev: -1,
    memberCount: 0,
    reactCount: 0,
    replyCount: 0,
    reactSummary: {},
    lastSeenAt: null,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
    __v: 0,
  };
}
