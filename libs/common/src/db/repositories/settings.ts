/** Settings repository with a short in-process cache (every service reads settings often). */
import type { Models, SettingDoc } from '../models';
import { SETTING_DEFAULTS } from '../../settings/defaults';

const TTL_MS = 5000;

/** A stored setting with its metadata (the admin view). */
export type SettingRecord = SettingDoc & { name: string; updatedAt?: Date; createdAt?: Date };

export class SettingsRepository {
  private cache = new Map<string, { value: unknown; at: number }>();
  constructor(private readonly models: Models) {}

  async get<T = unknown>(name: string): Promise<T | undefined> {
    const hit = this.cache.get(name);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value as T;
    const doc = await this.models.Setting.findOne({ _id: name }).lean();
    const value = (doc && !doc.deletedAt ? doc.value : undefined) as T | undefined;
    this.cache.set(name, { value, at: Date.now() });
    return value;
  }

  async set(name: string, value: unknown): Promise<void> {
    await this.models.Setting.updateOne({ _id: name }, { $set: { name, value } }, { upsert: true });
    this.cache.delete(name);
  }

  /** Sets the value only if the setting is still empty; returns the value now stored. */
  async setIfEmpty(name: string, value: unknown): Promise<unknown> {
    const doc = await this.models.Setting.findOne({ _id: name }).lean();
    if (doc?.value === '' || doc?.value == null)
      await this.models.Setting.updateOne({ _id: name, value: doc?.value ?? null }, { $set: { value } });
    this.cache.delete(name);
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
    this.cache.clear();
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
   * checked every value first); the records after. The cache is dropped so readers see them.
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
      this.cache.clear();
    }
    return out;
  }

  invalidate(): void {
    this.cache.clear();
  }
}
