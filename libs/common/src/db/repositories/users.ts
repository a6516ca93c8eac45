/** Users repository: every query names its intention; reads are lean. */
import type { Models, UserDoc } from '../models';

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

export type UserRecord = UserDoc & { createdAt?: Date; updatedAt?: Date };

export function stripSecrets<T extends Record<string, unknown>>(doc: T): T {
  const out = { ...doc };
  for (const f of SECRET_FIELDS) delete (out as Record<string, unknown>)[f];
  return out;
}

export class UsersRepository {
  constructor(private readonly models: Models) {}

  /** A live (active, not deleted) user by id; used for every authenticated request. */
  async findActiveById(id: string): Promise<UserRecord | null> {
    return this.models.User.findOne({ id: String(id), active: true, deletedAt: null }).lean<UserRecord>();
  }

  async findById(id: string): Promise<UserRecord | null> {
    return this.models.User.findOne({ id: String(id) }).lean<UserRecord>();
  }

  /** For login: includes the password hash. */
  async findForLogin(
    filter: { username?: string; id?: string },
    domain: string,
  ): Promise<(UserRecord & { password?: string }) | null> {
    const q = filter.id
      ? { id: String(filter.id) }
      : { username: String(filter.username).toLowerCase(), domain };
    return this.models.User.findOne(q).select('+password').lean<UserRecord & { password?: string }>();
  }

  async existsByUsername(username: string, domain: string): Promise<boolean> {
    return (await this.models.User.countDocuments({ username, domain }).limit(1)) > 0;
  }

  async existsByEmail(email: string): Promise<boolean> {
    return (await this.models.User.countDocuments({ email: email.toLowerCase() }).limit(1)) > 0;
  }

  async create(
    doc: Record<string, unknown> & { id: string; username: string; password: string },
  ): Promise<UserRecord> {
    const created = await this.models.User.create(doc);
    return created.toObject();
  }

  async setCircles(id: string, circles: Record<string, string>): Promise<void> {
    await this.models.User.updateOne({ id }, { $set: { circles } });
  }

  async markLogin(id: string): Promise<void> {
    await this.models.User.updateOne({ id }, { $set: { lastLogin: new Date() } });
  }

  async softDelete(id: string): Promise<void> {
    await this.models.User.updateOne({ id }, { $set: { deletedAt: new Date(), active: false } });
  }

  async count(): Promise<number> {
    return this.models.User.countDocuments({ deletedAt: null });
  }
}
