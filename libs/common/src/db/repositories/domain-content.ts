/**
 * What this server holds of another server, as one aggregate for an admin's domain block
 * (docs/federation.md, "Blocking a domain"): blocking hides every copy of the server's posts at
 * once (through PostsStore, so they leave every list and timeline and every cached page), marked
 * as hidden by the block; lifting the block restores exactly those (back into their lists and the
 * timelines of the circles their authors are in now), not the ones their server deleted.
 */
import type { PostsStore } from './posts';

/** `deletedBy` of a copy hidden by a block of its domain. */
export const blockMark = (domain: string): string => `domain-block:${domain}`;

export class DomainContentStore {
  constructor(private readonly posts: PostsStore) {}

  /** Hides the domain's live copies; how many. */
  async hide(domain: string): Promise<number> {
    let n = 0;
    for (const id of await this.posts.copiesFrom(domain, null))
      if (await this.posts.softDeletePost(id, blockMark(domain))) n++;
    return n;
  }

  /** Restores the copies its block hid; how many. */
  async restore(domain: string): Promise<number> {
    let n = 0;
    for (const id of await this.posts.copiesFrom(domain, blockMark(domain)))
      if (await this.posts.restorePost(id)) n++;
    return n;
  }
}
