/**
 * Users over the engine port (ADR 0013). A user's `_id` is their id (`@name@domain`), so a
 * username is unique by the primary key; an e-mail address by a sparse unique index. Secrets
 * (password hash, token hashes) never leave the store unless a flow asks for them
 * (`findForLogin`, `findWithSecrets`, `snapshot`): every other read is stripped of them here.
 */
import type { Engine, Update } from '../engine/port';
import { userId as userIdOf } from '../ids';
import { ObjectCollection, type FoundRows, type PageRequest } from './object-collection';
import { deletedFilter } from './admin-lists';
import type { DeletedMode } from './listing';
import { SECRET_KEYS, USERS, type StoredUser, type UserRecord, type UserSecrets } from './user-record';

export { stripSecrets } from './user-secrets';
export { USERS, type UserRecord, type UserSecrets, type StoredUser } from './user-record';

export type UserCounter = 'postCount' | 'publicPostCount' | 'replyCount' | 'reactCount';

/**
 * Told after a user's account changed state (deleted, restored, removed): cached views of the
 * user as a viewer and of every circle they are in are stale. Wired to the read-cache stamps.
 */
export type AccountListener = (userId: string) => Promise<void>;

/** What registration stores; everything else takes its default. */
export type NewUser = Partial<Omit<StoredUser, '_id'>> & { id: string; username: string; password: string };

/** The row without its secrets. */
function hide<T extends Partial<StoredUser>>(doc: T): T {
  const out = { ...doc };
  for (const k of SECRET_KEYS) delete out[k];
  return out;
}

const normalEmail = (email: string): string => email.trim().toLowerCase();

export class UsersStore extends ObjectCollection<StoredUser> {
  constructor(
    engine: Engine,
    private readonly domain: string,
    private readonly onAccountChange: AccountListener = () => Promise.resolve(),
  ) {
    super(engine, USERS);
  }

  override async byId(id: string): Promise<StoredUser | null> {
    const doc = await super.byId(id);
    return doc && hide(doc);
  }

  override async liveByIds(ids: readonly string[]): Promise<Map<string, StoredUser>> {
    const found = await super.liveByIds(ids);
    return new Map([...found].map(([id, u]) => [id, hide(u)]));
  }

  override async set(
    id: string,
    fields: Record<string, unknown>,
    unset: readonly string[] = [],
  ): Promise<StoredUser | null> {
    const set: Record<string, unknown> = { ...fields, updatedAt: new Date() };
    if (typeof set.email === 'string') set.email = normalEmail(set.email);
    const after = await super.set(id, set, unset);
    return after && hide(after);
  }

  override async softDelete(
    id: string,
    fields: Record<string, unknown> & { deletedAt: Date },
  ): Promise<StoredUser | null> {
    const before = await super.softDelete(id, { ...fields, updatedAt: new Date() });
    return before && hide(before);
  }

  override async restore(id: string, fields: Record<string, unknown> = {}): Promise<StoredUser | null> {
    const after = await super.restore(id, { ...fields, updatedAt: new Date() });
    return after && hide(after);
  }

  /** A live (active, not deleted) user by id; used for every authenticated request. */
  async findActiveById(id: string): Promise<UserRecord | null> {
    const u = await this.byId(String(id));
    return u && u.active !== false && !u.deletedAt ? u : null;
  }

  async findById(id: string): Promise<UserRecord | null> {
    return this.byId(String(id));
  }

  /** For login: includes the password hash. A username names the local user `@name@domain`. */
  async findForLogin(
    filter: { username?: string; id?: string },
    domain: string,
  ): Promise<(UserRecord & { password?: string }) | null> {
    const id = filter.id ? String(filter.id) : userIdOf(String(filter.username).toLowerCase(), domain);
    return this.rows.findOne({ _id: id });
  }

  /** With the secret fields a flow needs (verification and reset tokens). */
  async findWithSecrets(id: string): Promise<(UserRecord & UserSecrets) | null> {
    return this.rows.findOne({ _id: String(id) });
  }

  /**
   * Consumes an e-mail verification token (by its hash): the user's id when it was valid and
   * this call consumed it. The token is the compare-and-set: of two racing requests, one wins.
   */
  async consumeVerificationToken(hash: string): Promise<string | null> {
    const found = await this.rows.findOne({ emailVerificationToken: hash });
    if (!found || !usable(found) || !(found.emailVerificationExpires! > new Date())) return null;
    const res = await this.rows.updateOne(
      { _id: found._id, emailVerificationToken: hash },
      {
        $set: { emailVerified: true, updatedAt: new Date() },
        $unset: { emailVerificationToken: true, emailVerificationExpires: true },
      },
    );
    return res.matched === 1 ? found.id : null;
  }

  /** Stores a new verification token for a live, unverified local address; whether one was stored. */
  async setVerificationToken(email: string, domain: string, hash: string, expires: Date): Promise<boolean> {
    return this.setToken(email, domain, true, {
      emailVerificationToken: hash,
      emailVerificationExpires: expires,
    });
  }

  /** Stores a password-reset token for a live local address; whether one was stored. */
  async setResetToken(email: string, domain: string, hash: string, expires: Date): Promise<boolean> {
    return this.setToken(email, domain, false, { passwordResetToken: hash, passwordResetExpires: expires });
  }

  /**
   * Resets a password with a token (by its hash), single use even for racing requests; opening
   * the link proves the mailbox is the user's, so the address counts as verified. The user's id.
   */
  async resetPassword(tokenHash: string, passwordHash: string): Promise<string | null> {
    const found = await this.rows.findOne({ passwordResetToken: tokenHash });
    if (!found || !usable(found) || !(found.passwordResetExpires! > new Date())) return null;
    const res = await this.rows.updateOne(
      { _id: found._id, passwordResetToken: tokenHash },
      {
        $set: { password: passwordHash, emailVerified: true, updatedAt: new Date() },
        $unset: { passwordResetToken: true, passwordResetExpires: true },
      },
    );
    return res.matched === 1 ? found.id : null;
  }

  /** A user by e-mail (registration and password reset). */
  async findByEmail(email: string): Promise<UserRecord | null> {
    const u = await this.rows.findOne({ email: normalEmail(email) });
    return u && hide(u);
  }

  async existsByUsername(username: string, domain: string): Promise<boolean> {
    return !!(await this.byId(userIdOf(username, domain)));
  }

  async existsByEmail(email: string): Promise<boolean> {
    return !!(await this.findByEmail(email));
  }

  /**
   * A new user with every default; fails with the port's DuplicateKeyError when the id or the
   * e-mail address is taken (of concurrent registrations of one name or address, one wins).
   */
  async create(doc: NewUser): Promise<UserRecord> {
    const now = new Date();
    const { email, ...rest } = doc;
    const row = await this.insert({
      objectType: 'User',
      type: 'Person',
      emailVerified: false,
      profile: {},
      prefs: {},
      circles: { following: '', allFollowing: '', groups: '', blocked: '', muted: '' },
      to: '@public',
      canReply: '@public',
      canReact: '@public',
      postCount: 0,
      publicPostCount: 0,
      replyCount: 0,
      reactCount: 0,
      active: true,
      acknowledgedRules: [],
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
      ...rest,
      ...(email ? { email: normalEmail(email) } : {}),
    });
    return hide(row);
  }

  /** Sets fields, secrets included (hashed tokens, password hash); returns nothing. */
  async setFields(id: string, set: Record<string, unknown>, unset: string[] = []): Promise<void> {
    await this.set(id, set, unset);
  }

  /** Sets fields and returns the record after (profile updates). */
  async update(id: string, set: Record<string, unknown>): Promise<UserRecord | null> {
    return this.set(id, set);
  }

  async setCircles(id: string, circles: Record<string, string>): Promise<void> {
    await this.set(id, { circles });
  }

  async markLogin(id: string): Promise<void> {
    await this.set(id, { lastLogin: new Date() });
  }

  async bumpCounter(id: string, field: UserCounter, by: 1 | -1): Promise<void> {
    await this.bump(id, field, by);
  }

  /** Moves several counters of one user in one write (never below zero). */
  async bumpCounters(id: string, moves: Partial<Record<UserCounter, 1 | -1>>): Promise<void> {
    await this.bumpMany(id, moves);
  }

  /**
   * Deactivates and soft-deletes; the record before when this call deleted it. Cached views of
   * the user and their circles go stale (only when this call deleted it).
   */
  async deactivate(
    id: string,
    deletedBy?: string,
    opts: { suspension?: boolean } = {},
  ): Promise<UserRecord | null> {
    const before = await this.softDelete(id, {
      deletedAt: new Date(),
      active: false,
      ...(deletedBy ? { deletedBy } : {}),
      // An admin's reversible soft delete (ADR 0028), told apart from an owner's own delete.
      ...(opts.suspension ? { suspended: true } : {}),
    });
    if (before) await this.onAccountChange(id);
    return before;
  }

  /** Reactivates a soft-deleted user (the record after, null when it was not deleted); stamps move. */
  async reactivate(id: string): Promise<UserRecord | null> {
    const after = await this.restore(id, { active: true });
    if (after) await this.onAccountChange(id);
    return after;
  }

  /**
   * Makes an account usable again whatever its state (admin restore: deleted or deactivated).
   * `restored` tells the one caller whose write made it usable: a compare-and-set on the state
   * read, so of concurrent restores one wins. Null when there is no such user.
   */
  async restoreAccount(id: string): Promise<{ user: UserRecord; restored: boolean } | null> {
    for (;;) {
      const current = await this.byId(id);
      if (!current) return null;
      if (usable(current)) return { user: current, restored: false };
      const res = await this.rows.updateOne(
        { _id: id, deletedAt: current.deletedAt ?? null, active: current.active ?? null },
        {
          $set: { deletedAt: null, active: true, deletedBy: null, updatedAt: new Date() },
          $unset: { suspended: true },
        },
      );
      if (res.matched === 1) {
        await this.onAccountChange(id);
        return { user: (await this.byId(id)) ?? current, restored: true };
      }
      // Changed in between: read again (another restore wins, or a delete came first).
    }
  }

  /** Removes the record for good (admin full delete); stamps move when it was there. */
  async remove(id: string): Promise<boolean> {
    const removed = await this.hardDelete(id);
    if (removed) await this.onAccountChange(id);
    return removed;
  }

  /**
   * The ids of the local accounts that are not active (an admin's soft delete, an owner's own
   * delete): read paths hide what they wrote (cache/suspended.ts, ADR 0028).
   */
  async suspendedIds(): Promise<string[]> {
    const rows = await this.rows.find({ domain: this.domain, active: false }, { fields: ['_id'] });
    return rows.map((r) => r._id);
  }

  /** Users not deleted (GET /admin/system). */
  async count(): Promise<number> {
    return this.rows.count({ deletedAt: null });
  }

  /**
   * GET /admin/users: newest first; `deleted` `true` lists only soft-deleted users, `include`
   * both, anything else live ones; `active` narrows to (in)active accounts.
   */
  async pageForAdmin(
    filter: { deleted?: 'true' | 'include' | 'false'; active?: boolean },
    req: PageRequest,
  ): Promise<FoundRows<UserRecord>> {
    const mode: DeletedMode =
      filter.deleted === 'true' ? 'deleted' : filter.deleted === 'include' ? 'include' : 'live';
    const q = { ...deletedFilter(mode), ...(filter.active !== undefined ? { active: filter.active } : {}) };
    const found = await this.page(q, req, [['createdAt', -1]]);
    return { total: found.total, items: found.items.map(hide) };
  }

  /** GET /users: the active local members (cached remote users are not people of this server), newest first. */
  async pageLocalMembers(req: PageRequest): Promise<FoundRows<UserRecord>> {
    const found = await this.page({ domain: this.domain, active: true, deletedAt: null }, req, [
      ['createdAt', -1],
    ]);
    return { total: found.total, items: found.items.map(hide) };
  }

  /** Every user not deleted, oldest first, a batch at a time (the search backfill); no secrets. */
  async *allLive(batch = 200): AsyncGenerator<UserRecord> {
    let after: [Date, string] | undefined;
    for (;;) {
      const rows = await this.rows.find(
        { deletedAt: null },
        {
          sort: [
            ['createdAt', 1],
            ['_id', 1],
          ],
          limit: batch,
          ...(after ? { after } : {}),
        },
      );
      for (const r of rows) yield hide(r);
      const last = rows.at(-1);
      if (rows.length < batch || !last) return;
      after = [last.createdAt, last._id];
    }
  }

  /** The stored row exactly as it is (password hash included): kept aside before a restore. */
  async snapshot(id: string): Promise<StoredUser | null> {
    return this.rows.findOne({ _id: String(id) });
  }

  /**
   * After a restore: makes sure this user can still log in. A live account in the restored data
   * is left exactly as archived (its password is the one it had then); a missing one is put back
   * from the snapshot; a deactivated or deleted one gets the snapshot's password and is
   * re-activated.
   */
  async reinstate(snapshot: StoredUser): Promise<'reinserted' | 'reactivated' | 'unchanged'> {
    const current = await this.rows.findOne({ _id: snapshot._id });
    if (!current) {
      await this.rows.insertOne({ ...snapshot });
      return 'reinserted';
    }
    if (usable(current) && typeof current.password === 'string') return 'unchanged';
    const update: Update = { $set: { active: true, deletedAt: null, updatedAt: new Date() } };
    if (snapshot.password) update.$set!.password = snapshot.password;
    await this.rows.updateOne({ _id: snapshot._id }, update);
    return 'reactivated';
  }

  /** Sets token fields on the live local account of an address (`unverified`: only if not verified yet). */
  private async setToken(
    email: string,
    domain: string,
    unverified: boolean,
    fields: Partial<UserSecrets>,
  ): Promise<boolean> {
    const found = await this.rows.findOne({ email: normalEmail(email) });
    if (!found || found.domain !== domain || !usable(found) || (unverified && found.emailVerified))
      return false;
    // The state read is the condition, so a delete or a verification in between wins.
    const res = await this.rows.updateOne(
      {
        _id: found._id,
        active: true,
        deletedAt: null,
        ...(unverified ? { emailVerified: { $ne: true } } : {}),
      },
      { $set: { ...fields, updatedAt: new Date() } },
    );
    return res.matched === 1;
  }
}

/** An account that can log in: active and not deleted. */
function usable(u: Pick<UserRecord, 'active' | 'deletedAt'>): boolean {
  return u.active !== false && !u.deletedAt;
}
