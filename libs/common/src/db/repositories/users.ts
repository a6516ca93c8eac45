/** Users: every query names its intention; reads are lean; a user's `_id` is their id. */
import type { Models, UserDoc } from '../models';
import { userId as userIdOf } from '../ids';
import { ObjectStore, type FoundRows, type PageRequest } from './objects';

/** Fields never returned by any API. */
const SECRET_FIELDS = [
  'password',
  'emailVerificationToken',
  'emailVerificationExpires',
  'passwordResetToken',
  'passwordResetExpires',
  '_id',
  '__v',
] as const;

const HIDDEN = {
  password: 0,
  emailVerificationToken: 0,
  emailVerificationExpires: 0,
  passwordResetToken: 0,
  passwordResetExpires: 0,
} as const;

export type UserRecord = UserDoc & { createdAt?: Date; updatedAt?: Date };
type Stored = UserRecord & { id: string };

export function stripSecrets<T extends Record<string, unknown>>(doc: T): T {
  const out = { ...doc };
  for (const f of SECRET_FIELDS) delete (out as Record<string, unknown>)[f];
  return out;
}

export type UserCounter = 'postCount' | 'replyCount' | 'reactCount';

export class UsersRepository extends ObjectStore<Stored> {
  constructor(private readonly models: Models) {
    super(models.User);
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
      .select('+password +emailVerificationToken +emailVerificationExpires +passwordResetToken +passwordResetExpires')
      .lean<UserRecord & Record<string, unknown>>();
  }

  /** A user by the hash of a verification or reset token (a scan: rare, e-mail flows only). */
  async findByTokenHash(
    field: 'emailVerificationToken' | 'passwordResetToken',
    hash: string,
  ): Promise<(UserRecord & Record<string, unknown>) | null> {
    const expires = field === 'emailVerificationToken' ? 'emailVerificationExpires' : 'passwordResetExpires';
    return this.models.User.findOne({ [field]: hash })
      .select(`+${field} +${expires}`)
      .lean<UserRecord & Record<string, unknown>>();
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
    return after ? (stripSecrets(after as unknown as Record<string, unknown>) as unknown as UserRecord) : null;
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

  /** Deactivates and soft-deletes; the record before when this call deleted it. */
  async deactivate(id: string, deletedBy?: string): Promise<UserRecord | null> {
    return this.softDelete(id, { deletedAt: new Date(), active: false, ...(deletedBy ? { deletedBy } : {}) });
  }

  /** Reactivates a soft-deleted user. */
  async reactivate(id: string): Promise<UserRecord | null> {
    return this.restore(id, { active: true });
  }

  /** Removes the record for good (admin full delete). */
  async remove(id: string): Promise<boolean> {
    return this.hardDelete(id);
  }

  async count(): Promise<number> {
    return this.models.User.countDocuments({ deletedAt: null });
  }

  /** GET /users and the admin list: newest first (a scan; not a hot path). */
  async pageWhere(filter: Record<string, unknown>, req: PageRequest): Promise<FoundRows<Stored>> {
    return this.page(filter, req, { createdAt: -1, _id: -1 }, HIDDEN);
  }
}
