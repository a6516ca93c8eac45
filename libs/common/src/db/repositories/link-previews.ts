/**
 * Cached link previews (GET /preview), keyed by a SHA-256 of the URL (`_id`); stale entries are
 * refetched by the preview service. Written over the engine port (ADR 0013): every read and
 * write is by `_id`.
 */
import type { Collection, CollectionSpec, Engine, Value } from '../engine/port';

export interface CachedPreview {
  url: string;
  data: Record<string, unknown> | null;
  /** Why the fetch gave nothing (cached too, so a dead link is not fetched on every view). */
  failure: string | null;
  fetchedAt: Date;
}

interface PreviewRow {
  _id: string;
  url: string;
  data: Record<string, Value> | null;
  failure: string | null;
  fetchedAt: Date;
}

export const LINK_PREVIEWS: CollectionSpec = {
  name: 'link_previews',
  // Every query is by `_id` (the URL's hash).
  indexes: [],
  dates: ['fetchedAt'],
};

export class LinkPreviewsStore {
  private readonly rows: Collection<PreviewRow>;

  constructor(engine: Engine) {
    this.rows = engine.collection<PreviewRow>(LINK_PREVIEWS);
  }

  async get(key: string): Promise<CachedPreview | null> {
    const row = await this.rows.findOne({ _id: key });
    if (!row) return null;
    return { url: row.url, data: row.data, failure: row.failure, fetchedAt: row.fetchedAt };
  }

  /** Replaces the entry (the last fetch wins; every field is written). */
  async put(key: string, value: CachedPreview): Promise<void> {
    await this.rows.updateOne(
      { _id: key },
      {
        $set: {
          url: value.url,
          data: value.data as Record<string, Value> | null,
          failure: value.failure,
          fetchedAt: value.fetchedAt,
        },
      },
      { upsert: true },
    );
  }
}
