/**
 * Circle timelines (decisions.md §5): PostsStore appends a post to the timeline of every circle
 * its author is in when it writes the post (read from the membership index, one `_id` read);
 * here a member added to a circle brings their recent posts along, a deleted circle's timeline
 * goes, and reads walk a circle's list newest first (ADR 0013). A member removed leaves at once
 * because readers keep only entries whose author is still a member.
 */
import { STAMPS } from '../../cache/stamps';
import type { Place } from '../lists/cursor';
import type { ListStore, OpenedLists } from '../lists/store';
import {
  LISTS,
  timelineAppends,
  type Bump,
  type PostLoader,
  type PostRecord,
  type PostsStore,
} from './posts';

export const BACKFILL = 200;

export interface TimelinePage {
  items: PostRecord[];
  /** Live entries the viewer's tiers count (public and, for local viewers, server posts). */
  total: number;
  /** Whether more entries may follow the last item. */
  more: boolean;
  /**
   * With `more`: the last item's place in the list (its entry's time and id), where the next
   * page starts (`before`). The entry's time, not the post's `publishedAt`: they differ for a
   * post from a remote clock ahead of ours (`entryOf`).
   */
  next?: Place;
}

export class TimelineStore {
  constructor(
    private readonly lists: ListStore,
    private readonly posts: PostsStore,
    private readonly domain: string,
    private readonly bumpStamps: Bump,
  ) {}

  /** A new member's recent posts join the circle's timeline. */
  async backfill(circleId: string, memberId: string): Promise<void> {
    const posts = await this.posts.newestByAuthor(memberId, BACKFILL);
    if (posts.length) {
      await this.lists.appendAll(posts.flatMap((p) => timelineAppends(p, [circleId], this.domain)));
      for (let i = 0; i < posts.length; i += 20)
        await Promise.all(posts.slice(i, i + 20).map((p) => this.posts.addCircles(p.id, [circleId])));
    }
    await this.bumpStamps([STAMPS.circle(circleId)]);
  }

  /** A circle was deleted: its timeline goes. */
  async dropCircle(circleId: string, memberIds: string[]): Promise<void> {
    await this.lists.drop(LISTS.circle(circleId));
    await this.bumpStamps([STAMPS.circle(circleId), ...memberIds.map(STAMPS.viewer)]);
  }

  /**
   * Starts reading a circle's timeline for a page (its counters and first entries), so the caller
   * can load the circle and the viewer meanwhile; hand the result to `page`.
   */
  open(circleId: string, before?: Place): Promise<OpenedLists> {
    const opened = this.lists.open([LISTS.circle(circleId)], before ? { before } : {});
    // Awaited by `page`, or dropped when the caller fails first (no access).
    opened.catch(() => undefined);
    return opened;
  }

  /**
   * A page of the circle's timeline, newest first: entries whose post is live, whose author is
   * still a member, and that `keep` admits (audience, type, blocked authors).
   */
  async page(
    circleId: string,
    memberIds: Set<string>,
    keep: (p: PostRecord) => boolean,
    opts: { before?: Place; limit: number; local: boolean; load?: PostLoader; opened?: Promise<OpenedLists> },
  ): Promise<TimelinePage> {
    const {
      heads: [head],
      entries,
    } = await (opts.opened ?? this.open(circleId, opts.before));
    const total =
      Math.max(0, head?.tags['to.public'] ?? 0) +
      (opts.local ? Math.max(0, head?.tags['to.server'] ?? 0) : 0);
    /** Each yielded entry's time, by id: the next page's cursor is the last item's place. */
    const at = new Map<string, number>();
    const members = async function* () {
      for await (const e of entries)
        if (!e.by || memberIds.has(e.by)) {
          at.set(e.id, e.at.getTime());
          yield e;
        }
    };
    const items: PostRecord[] = [];
    // The first batch a little over the page; later ones only about what is still missing.
    const size = () => Math.max(5, opts.limit + 5 - items.length);
    for await (const batch of this.posts.liveBatches(members(), size, opts.load)) {
      for (const p of batch) {
        if (!keep(p)) continue;
        if (items.length === opts.limit) {
          const last = items[items.length - 1]!;
          return { items, total, more: true, next: { at: at.get(last.id)!, id: last.id } };
        }
        items.push(p);
      }
    }
    return { items, total, more: false };
  }
}
