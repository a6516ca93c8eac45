/**
 * Settings store with a per-process cache that every write invalidates everywhere at once: a
 * write bumps the settings stamp (Redis when REDIS_URL is set, so every process and replica sees
 * it) and a read compares the stamp its cached value was read under with the current one (one
 * Redis GET, or a memory lookup in standalone mode). Only while the stamp store cannot answer
 * (Redis down) does a cached value live on its age, for FALLBACK_TTL_MS.
 */
import type { Models, SettingDoc } from '../models';
import { SETTING_DEFAULTS } from '../../settings/defaults';
import { STAMPS, type StampStore } from '../../cache/stamps';

/** How long a cached value is trusted while the stamp cannot be read. */
export const FALLBACK_TTL_MS = 5000;

/** A stored setting with its metadata (the admin view). */
export type SettingRecord = SettingDoc & { name: string; updatedAt?: Date; createdAt?: Date };

/** The stamp operations the store needs; without them (scripts, benches) it relies on the TTL. */
export type SettingsStamps = Pick<StampStore, 'read' | 'bump'>;

const noStamps: SettingsStamps = { read: () => Promise.resolve(null), bump: () => Promise.resolve() };

export class SettingsRepository {
  /** name → the value, the stamp it was read under (null: unknown) and when. */
  private cache = new Map<string, { value: unknown; stamp: number | null; at: number }>();
  constructor(
    private readonly models: Models,
    private readonly stamps: SettingsStamps = noStamps,
  ) {}

  async get<T = unknown>(name: string): Promise<T | undefined> {
    // Read the stamp before the document: a write landing in between leaves an entry under the
    // older stamp, which the next read then refuses.
    const stamp = ((await this.stamps.read([STAMPS.settings])) ?? [null])[0] ?? null;
    const hit = this.cache.get(name);
    if (hit && this.fresh(hit, stamp)) return hit.value as T;
    const doc = await this.models.Setting.findOne({ _id: name }).lean();
    const value = (doc && !doc.deletedAt ? doc.value : undefined) as T | undefined;
    this.cache.set(name, { value, stamp, at: Date.now() });
    return value;
  }

  private fresh(hit: { stamp: number | null; at: number }, stamp: number | null): boolean {
    if (stamp !== null) return hit.stamp === stamp;
    return Date.now() - hit.at < FALLBACK_TTL_MS;
  }

  /** After a write: drop this process's entries and move the stamp for every other process. */
  private async changed(): Promise<void> {
    this.cache.clear();
    await this.stamps.bump([STAMPS.settings]);
  }

  async set(name: string, value: unknown): Promise<void> {
    try {
      await this.models.Setting.updateOne({ _id: name }, { $set: { name, value } }, { upsert: true });
    } finally {
      await this.changed();
    }
  }

  /** Sets the value only if the setting is still empty; returns the value now stored. */
  async setIfEmpty(name: string, value: unknown): Promise<unknown> {
    const doc = await this.models.Setting.findOne({ _id: name }).lean();
    if (doc?.value === '' || doc?.value == null) {
      await this.models.Setting.updateOne({ _id: name, value: doc?.value ?? null }, { $set: { value } });
      await this.changed();
    } else this.cache.delete(name);
    return this.get(name);
  }

  /** Creates missing settings; existing values are kept, metadata is refreshed. */
  async ensureDefaults(ctx: { domain: string; siteTitle: string }): Promise<void> {
    for (const d of SETTING_DEFAULTS) {
      await this.models.Setting.updateOne(
        { _id: d.name },
        {
          $setOnInsert: { name: d.name, value: d.value(ctx) },
          $set: { summary: d.summary, to: d.to, canEdit: d.canEdit, ui: d.ui },
        },
        { upsert: true },
      );
      // FerretDB 1.24 drops an empty array given in $setOnInsert: write such a default again.
      await this.models.Setting.updateOne(
        { _id: d.name, value: { $exists: false } },
        { $set: { value: d.value(ctx) } },
      );
    }
    await this.changed();
  }

  /** A live setting's whole document (value and metadata), uncached: for the admin API. */
  findDefinition(name: string): Promise<Record<string, unknown> | null> {
    return this.models.Setting.findOne({ _id: name, deletedAt: null }, { _id: 0, __v: 0 }).lean<
      Record<string, unknown>
    >();
  }

  /**
   * Every setting anyone may read (`GET /`, `GET /profile`): `to: @public`, not redacted, not
   * deleted; name → value. A scan of the small settings collection.
   */
  async publicValues(): Promise<Record<string, unknown>> {
    const rows = await this.models.Setting.find(
      { to: '@public', deletedAt: null },
      { name: 1, value: 1, ui: 1 },
    )
      .sort({ name: 1 })
      .lean();
    const out: Record<string, unknown> = {};
    for (const r of rows) {
      if (r.ui?.type === 'redacted' || r.name === 'privateKey') continue;
      // The rules seed can be stored without a value: it means the empty list.
      out[r.name] = r.value ?? (r.ui?.type === 'rules' ? [] : null);
    }
    return out;
  }

  /** Every live setting with its metadata, by name (GET /admin/settings; a small collection). */
  async listAll(): Promise<SettingRecord[]> {
    return this.models.Setting.find({ deletedAt: null }).sort({ name: 1 }).lean<SettingRecord[]>();
  }

  /** Live settings by name with their metadata (`_id` reads; missing names are left out). */
  async recordsByName(names: string[]): Promise<Map<string, SettingRecord>> {
    const docs = await Promise.all(
      [...new Set(names)].map((name) => this.models.Setting.findOne({ _id: name }).lean<SettingRecord>()),
    );
    return new Map(docs.filter((d): d is SettingRecord => !!d && !d.deletedAt).map((d) => [d.name, d]));
  }

  /**
   * Writes the values of existing settings (the admin's bulk and single updates; callers have
   * checked every value first); the records after. Every process's next read sees them.
   */
  async writeValues(values: Array<{ name: string; value: unknown }>): Promise<SettingRecord[]> {
    const out: SettingRecord[] = [];
    try {
      for (const { name, value } of values) {
        const after = await this.models.Setting.findOneAndUpdate(
          { _id: name },
          { $set: { value } },
          { returnDocument: 'after' },
        ).lean<SettingRecord>();
        if (after) out.push(after);
      }
    } finally {
      await this.changed();
    }
    return out;
  }

  /**
   * Drops this process's cached values (the signing keys were refused, a restore replaced the
   * database). Other processes are reached through the stamp a write moves, or `bumpAll`.
   */
  invalidate(): void {
    this.cache.clear();
  }
}
