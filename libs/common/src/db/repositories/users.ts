/** Users: every query names its intention; reads are lean; a user's `_id` is their id. */
import type { Models, UserDoc } from '../models';
import { userId as userIdOf } from '../ids';
import { ObjectStore, type FoundRows, type PageRequest } from './objects';
import { stripSecrets } from './user-secrets';

export { stripSecrets } from './user-secrets';

const HIDDEN = {
  password: 0,
  emailVerificationToken: 0,
  emailVerificationExpires: 0,
  passwordResetToken: 0,
  passwordResetExpires: 0,
} as const;

export type UserRecord = UserDoc & { createdAt?: Date; updatedAt?: Date };
type Stored = UserRecord & { id: string };

export type UserCounter = 'postCount' | 'publicPostCount' | 'replyCount' | 'reactCount';

/**
 * Told after a user's account changed state (deleted, restored, removed): cached views of the
 * user as a viewer and of every circle they are in are stale. Wired to the read-cache stamps.
 */
export type AccountListener = (userId: string) => Promise<void>;

export class UsersRepository extends ObjectStore<Stored> {
  constructor(
    private readonly models: Models,
    private readonly domain: string,
    private readonly onAccountChange: AccountListener = () => Promise.resolve(),
  ) {
    super(models.User);
    this.hiddenFields = Object.keys(HIDDEN);
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
    return this.models.User.findOne({ _id: id })
      .select('+password')
      .lean<UserRecord & { password?: string }>();
  }

  /** With the secret fields a flow needs (verification and reset tokens). */
  async findWithSecrets(id: string): Promise<(UserRecord & Record<string, unknown>) | null> {
    return this.models.User.findOne({ _id: id })
      .select(
        '+password +emailVerificationToken +emailVerificationExpires +passwordResetToken +passwordResetExpires',
      )
      .lean<UserRecord & Record<string, unknown>>();
  }

  /**
   * Consumes an e-mail verification token (by its hash): the user's id when it was valid and
   * this call consumed it. A find, then an update conditional on the token, so only one of two
   * racing requests wins (FerretDB has no projection on findAndModify). E-mail flows are rare:
   * these filters scan the users.
   */
  async consumeVerificationToken(hash: string): Promise<string | null> {
    const found = await this.models.User.findOne(
      {
        emailVerificationToken: hash,
        emailVerificationExpires: { $gt: new Date() },
        active: true,
        deletedAt: null,
      },
      { id: 1 },
    ).lean<{ id: string }>();
    if (!found) return null;
    const res = await this.models.User.updateOne(
      { _id: found.id, emailVerificationToken: hash },
      { $set: { emailVerified: true }, $unset: { emailVerificationToken: 1, emailVerificationExpires: 1 } },
    );
    return res.modifiedCount === 1 ? found.id : null;
  }

  /** Stores a new verification token for a live, unverified local address; whether one was stored. */
  async setVerificationToken(email: string, domain: string, hash: string, expires: Date): Promise<boolean> {
    const res = await this.models.User.updateOne(
      { email, domain, emailVerified: { $ne: true }, active: true, deletedAt: null },
      { $set: { emailVerificationToken: hash, emailVerificationExpires: expires } },
    );
    return res.modifiedCount === 1;
  }

  /** Stores a password-reset token for a live local address; whether one was stored. */
  async setResetToken(email: string, domain: string, hash: string, expires: Date): Promise<boolean> {
    const res = await this.models.User.updateOne(
      { email, domain, active: true, deletedAt: null },
      { $set: { passwordResetToken: hash, passwordResetExpires: expires } },
    );
    return res.modifiedCount === 1;
  }

  /**
   * Resets a password with a token (by its hash), single use even for racing requests; opening
   * the link proves the mailbox is the user's, so the address counts as verified. The user's id.
   */
  async resetPassword(tokenHash: string, passwordHash: string): Promise<string | null> {
    const found = await this.models.User.findOne(
      {
        passwordResetToken: tokenHash,
        passwordResetExpires: { $gt: new Date() },
        active: true,
        deletedAt: null,
      },
      { id: 1 },
    ).lean<{ id: string }>();
    if (!found) return null;
    const res = await this.models.User.updateOne(
      { _id: found.id, passwordResetToken: tokenHash },
      {
        $set: { password: passwordHash, emailVerified: true },
        $unset: { passwordResetToken: 1, passwordResetExpires: 1 },
      },
    );
    return res.modifiedCount === 1 ? found.id : null;
  }

  /** A local user by e-mail (a scan: registration and password reset only). */
  async findByEmail(email: string): Promise<UserRecord | null> {
    return this.models.User.findOne({ email: email.toLowerCase() }).lean<UserRecord>();
  }

  async existsByUsername(username: string, domain: string): Promise<boolean> {
    return !!(await this.byId(userIdOf(username, domain)));
  }

  async existsByEmail(email: string): Promise<boolean> {
    return !!(await this.findByEmail(email));
  }

  async create(
    doc: Record<string, unknown> & { id: string; username: string; password: string },
  ): Promise<UserRecord> {
    return this.insert(doc);
  }

  /** Sets fields, secrets included (hashed tokens, password hash); returns nothing. */
  async setFields(id: string, set: Record<string, unknown>, unset: string[] = []): Promise<void> {
    await this.set(id, set, unset);
  }

  /** Sets fields and returns the public record after (profile updates). */
  async update(id: string, set: Record<string, unknown>): Promise<UserRecord | null> {
    const after = await this.set(id, set);
    return after
      ? (stripSecrets(after as unknown as Record<string, unknown>) as unknown as UserRecord)
      : null;
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
  async deactivate(id: string, deletedBy?: string): Promise<UserRecord | null> {
    const before = await this.softDelete(id, {
      deletedAt: new Date(),
      active: false,
      ...(deletedBy ? { deletedBy } : {}),
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
   * `restored` tells the one caller whose write made it usable (of concurrent restores, one);
   * stamps move then. Null when there is no such user.
   */
  async restoreAccount(id: string): Promise<{ user: UserRecord; restored: boolean } | null> {
    // A conditional update, not findAndModify (FerretDB refuses the projection of hidden fields).
    const res = await this.models.User.updateOne(
      { _id: id, $or: [{ deletedAt: { $ne: null } }, { active: false }] },
      { $set: { deletedAt: null, active: true, deletedBy: null } },
    );
    const restored = res.modifiedCount === 1;
    if (restored) await this.onAccountChange(id);
    const user = await this.byId(id);
    return user ? { user, restored } : null;
  }

  /** Removes the record for good (admin full delete); stamps move when it was there. */
  async remove(id: string): Promise<boolean> {
    const removed = await this.hardDelete(id);
    if (removed) await this.onAccountChange(id);
    return removed;
  }

  async count(): Promise<number> {
    return this.models.User.countDocuments({ deletedAt: null });
  }

  /**
   * GET /admin/users: newest first; `deleted` `true` lists only soft-deleted users, `include`
   * both, anything else live ones; `active` narrows to (in)active accounts. A scan (admin only).
   */
  async pageForAdmin(
    filter: { deleted?: 'true' | 'include' | 'false'; active?: boolean },
    req: PageRequest,
  ): Promise<FoundRows<Stored>> {
    const q: Record<string, unknown> =
      filter.deleted === 'true'
        ? { deletedAt: { $ne: null } }
        : filter.deleted === 'include'
          ? {}
          : { deletedAt: null };
    if (filter.active !== undefined) q.active = filter.active;
    return this.page(q, req, { createdAt: -1, _id: -1 }, HIDDEN);
  }

  /**
   * GET /users: the active local members (cached remote users are not people of this server),
   * newest first. A scan with top-level equality only; not a hot path.
   */
  async pageLocalMembers(req: PageRequest): Promise<FoundRows<Stored>> {
    return this.page(
      { active: true, deletedAt: null, domain: this.domain },
      req,
      { createdAt: -1, _id: -1 },
      HIDDEN,
    );
  }

  /** The stored document exactly as it is (password hash included): kept aside before a restore. */
  async snapshot(id: string): Promise<Record<string, unknown> | null> {
    return this.models.User.collection.findOne({ id: String(id) });
  }

  /**
   * After a restore: makes sure this user can still log in. A live account in the restored data
   * is left exactly as archived (its password is the one it had then); a missing one is put back
   * from the snapshot; a deactivated or deleted one gets the snapshot's password and is
   * re-activated.
   */
  async reinstate(snapshot: Record<string, unknown>): Promise<'reinserted' | 'reactivated' | 'unchanged'> {
    const { User } = this.models;
    const id = String(snapshot.id);
    const current = await User.collection.findOne({ id });
    if (!current) {
      await User.collection.insertOne({ ...snapshot });
      return 'reinserted';
    }
    if (current.active === true && !current.deletedAt && typeof current.password === 'string')
      return 'unchanged';
    await User.collection.updateOne(
      { id },
      { $set: { password: snapshot.password, active: true, deletedAt: null } },
    );
    return 'reactivated';
  }
}
