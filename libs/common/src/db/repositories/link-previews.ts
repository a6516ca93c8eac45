/** Cached link previews (GET /preview), keyed by a hash of the URL; stale entries are refetched. */
import type { Models } from '../models';

export interface CachedPreview {
  url: string;
  data: Record<string, unknown> | null;
  failure: string | null;
  fetchedAt: Date;
}

export class LinkPreviewsRepository {
  constructor(private readonly models: Models) {}

  async get(key: string): Promise<CachedPreview | null> {
    return this.models.LinkPreview.findOne({ _id: key }, { _id: 0 }).lean<CachedPreview>();
  }

  async put(key: string, value: CachedPreview): Promise<void> {
    await this.models.LinkPreview.replaceOne({ _id: key }, { _id: key, ...value }, { upsert: true });
  }
}
