/**
 * Settings store with a per-process cache that every write invalidates everywhere at once: a
 * write bumps the settings stamp (Redis when REDIS_URL is set, so every process and replica sees
 * it) and a read compares the stamp its cached value was read under with the current one (one
 * Redis GET, or a memory lookup in standalone mode). Only while the stamp store cannot answer
 * (Redis down) does a cached value live on its age, for FALLBACK_TTL_MS.
 *
 * Written over the engine port (ADR 0013): a row's `_id` is the setting's name, so every read and
 * write of one setting is a primary-key lookup; the listings read the small collection in name
 * order.
 */
import type { Collection, CollectionSpec, Engine, Value } from '../engine/port';
import { DuplicateKeyError } from '../engine/port';
import { SETTING_DEFAULTS } from '../../settings/defaults';
import { STAMPS, type StampStore } from '../../cache/stamps';

/** How long a cached value is trusted while the stamp cannot be read. */
export const FALLBACK_TTL_MS = 5000;

/** A stored setting with its metadata (the admin view). */
export interface SettingRecord {
  /** The setting's name. */
  _id: string;
  name: string;
  value?: Value;
  summary?: string;
  /** Who may read it: `@public`, `@server`, `@admin`, `@private`. */
  to?: string;
  canEdit?: string;
  /** How the admin dashboard edits it; `redacted` values are never shown. */
  ui?: { type?: string; label?: string; group?: string; order?: number; options?: Value };
  createdAt?: Date;
  /** When the value last changed. */
  updatedAt?: Date;
}

export const SETTINGS: CollectionSpec = {
  name: 'settings',
  indexes: [{ fields: [['to', 1]], serves: 'publicValues: the settings anyone may read, by name' }],
  dates: ['createdAt', 'updatedAt'],
};

/**
 * The metadata of a setting written before it was defined (scripts, tests): what a definition
 * gives by default, so it reads as a public text setting until `ensureDefaults` describes it.
 */
const UNDEFINED_SETTING = { to: '@public', canEdit: '@admin', ui: { type: 'text' } } as const;

/** The stamp operations the store needs; without them (scripts, benches) it relies on the TTL. */
export type SettingsStamps = Pick<StampStore, 'read' | 'bump'>;

const noStamps: SettingsStamps = { read: () => Promise.resolve(null), bump: () => Promise.resolve() };

const isEmpty = (v: Value | undefined) => v === '' || v === null || v === undefined;

export class SettingsStore {
  private readonly rows: Collection<SettingRecord>;
  /** name → the value, the stamp it was read under (null: unknown) and when. */
  private cache = new Map<string, { value: unknown; stamp: number | null; at: number }>();
  constructor(
    engine: Engine,
    private readonly stamps: SettingsStamps = noStamps,
  ) {
    this.rows = engine.collection<SettingRecord>(SETTINGS);
  }

  async get<T = unknown>(name: string): Promise<T | undefined> {
    // Read the stamp before the document: a write landing in between leaves an entry under the
    // older stamp, which the next read then refuses.
    const stamp = ((await this.stamps.read([STAMPS.settings])) ?? [null])[0] ?? null;
    const hit = this.cache.get(name);
    if (hit && this.fresh(hit, stamp)) return hit.value as T;
    const row = await this.rows.findOne({ _id: name });
    const value = row?.value as T | undefined;
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
    const now = new Date();
    try {
      await this.rows.updateOne(
        { _id: name },
        {
          $set: { name, value: value as Value, updatedAt: now },
          $setOnInsert: { ...UNDEFINED_SETTING, createdAt: now },
        },
        { upsert: true },
      );
    } finally {
      await this.changed();
    }
  }

  /**
   * Sets the value only if the setting is still empty (missing, null or ''); returns the value now
   * stored. A compare-and-set on the value read, so of concurrent callers exactly one value wins
   * and every caller gets that one back.
   */
  async setIfEmpty(name: string, value: unknown): Promise<unknown> {
    const now = new Date();
    const row = await this.rows.findOne({ _id: name });
    if (!row) {
      try {
        await this.rows.insertOne({
          _id: name,
          name,
          value: value as Value,
          ...UNDEFINED_SETTING,
          createdAt: now,
          updatedAt: now,
        });
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err; // another caller created it first
      }
      await this.changed();
    } else if (isEmpty(row.value)) {
      await this.rows.updateOne(
        { _id: name, value: row.value ?? null },
        { $set: { value: value as Value, updatedAt: now } },
      );
      await this.changed();
    } else this.cache.delete(name);
    return this.get(name);
  }

  /**
   * Creates missing settings with their default value; existing values are kept, their metadata
   * (summary, audience, editor, ui) is refreshed from the definitions.
   */
  async ensureDefaults(ctx: { domain: string; siteTitle: string }): Promise<void> {
    try {
      for (const d of SETTING_DEFAULTS) {
        const meta = { summary: d.summary, to: d.to, canEdit: d.canEdit, ui: d.ui as SettingRecord['ui'] };
        if (!(await this.rows.findOne({ _id: d.name }))) {
          const now = new Date();
          try {
            const value = d.value(ctx) as Value;
            await this.rows.insertOne({
              _id: d.name,
              name: d.name,
              value,
              ...meta,
              createdAt: now,
              updatedAt: now,
            });
            continue;
          } catch (err) {
            // Another process created it meanwhile: its value stands, the metadata is refreshed below.
            if (!(err instanceof DuplicateKeyError)) throw err;
          }
        }
        await this.rows.updateOne({ _id: d.name }, { $set: meta });
      }
    } finally {
      await this.changed();
    }
  }

  /** A setting's whole document (value and metadata), uncached: for the admin API. */
  async findDefinition(name: string): Promise<Record<string, unknown> | null> {
    const row: Partial<SettingRecord> | null = await this.rows.findOne({ _id: name });
    if (row) delete row._id; // the name says it
    return row;
  }

  /**
   * Every setting anyone may read (`GET /`, `GET /profile`): `to: @public`, not redacted; name →
   * value, in name order.
   */
  async publicValues(): Promise<Record<string, unknown>> {
    const rows = await this.rows.find(
      { to: '@public' },
      { sort: [['_id', 1]], fields: ['name', 'value', 'ui'] },
    );
    const out: Record<string, unknown> = {};
    for (const r of rows) {
      if (r.ui?.type === 'redacted' || r.name === 'privateKey') continue;
      // A rules list without a value means the empty list.
      out[r.name] = r.value ?? (r.ui?.type === 'rules' ? [] : null);
    }
    return out;
  }

  /** Every setting with its metadata, by name (GET /admin/settings; a small collection). */
  listAll(): Promise<SettingRecord[]> {
    return this.rows.find({}, { sort: [['_id', 1]] });
  }

  /** Settings by name with their metadata (one primary-key read; missing names are left out). */
  async recordsByName(names: string[]): Promise<Map<string, SettingRecord>> {
    if (!names.length) return new Map();
    const rows = await this.rows.find({ _id: { $in: [...new Set(names)] } });
    return new Map(rows.map((r) => [r.name, r]));
  }

  /**
   * Writes the values of existing settings (the admin's bulk and single updates; callers have
   * checked every value first); the records after. Every process's next read sees them.
   */
  async writeValues(values: Array<{ name: string; value: unknown }>): Promise<SettingRecord[]> {
    const out: SettingRecord[] = [];
    try {
      for (const { name, value } of values) {
        const after = await this.rows.findOneAndUpdate(
          { _id: name },
          { $set: { value: value as Value, updatedAt: new Date() } },
        );
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
