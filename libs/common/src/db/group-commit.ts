/**
 * Group commit: calls that arrive while a write is running wait, and the next write takes all of
 * them at once. A caller's promise settles when the write that carried its item has: it resolves
 * once the item is stored, and a failed write rejects every call it carried. With nothing in
 * flight an item is written at once, so a lone caller waits no longer than before.
 *
 * Why (ADR 0011): the embedded engine takes one write at a time, and FerretDB pays a write by the
 * command and by the documents it rewrites, not by what changed in them; ten posts appending to
 * the same lists, bumping the same author's counters or clearing their outbox rows together cost
 * about what one does. On MongoDB it saves round trips.
 */
export class GroupCommit<T> {
  private waiting: Array<{ item: T; resolve: () => void; reject: (err: unknown) => void }> = [];
  private writing = false;
  /** Ends the current linger early (`hurry`). */
  private wake: (() => void) | undefined;
  /** Someone waits on what is waiting now: the next batch does not linger. */
  private urgent = false;

  /**
   * @param turn runs each batch's taking and writing (the write gate's turn, write-gate.ts
   *   `turnOf`), so a batch also holds what arrived while the writes queued ahead of it ran.
   * @param lingerMs how long a batch waits for more items before its turn is asked for (0: not at
   *   all), read before each batch. For work nobody waits on (a deferred fan-out): the longer the
   *   wait, the more items share one write; `hurry` ends the wait when someone needs the items
   *   written.
   */
  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly turn: (run: () => Promise<void>) => Promise<void> = (run) => run(),
    private readonly lingerMs: () => number = () => 0,
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  /** Writes what is waiting now, without lingering further. */
  hurry(): void {
    this.urgent = true;
    this.wake?.();
  }

  /** Takes every waiting call and writes their items; never rejects. */
  private async writeBatch(): Promise<void> {
    const batch = this.waiting.splice(0);
    this.urgent = false;
    try {
      await this.write(batch.map((b) => b.item));
      for (const b of batch) b.resolve();
    } catch (err) {
      for (const b of batch) b.reject(err);
    }
  }

  /** The wait before the next batch; undefined when there is none (not even a tick). */
  private linger(): Promise<void> | undefined {
    const ms = this.lingerMs();
    if (ms <= 0 || this.urgent) return undefined;
    return new Promise<void>((resolve) => {
      // Never what keeps a process alive: a stopping service writes what lingers first (`hurry`).
      const timer = setTimeout(() => this.wake?.(), ms);
      timer.unref?.();
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length) {
        const wait = this.linger();
        if (wait) await wait;
        await this.turn(() => this.writeBatch());
      }
    } finally {
      this.writing = false;
    }
  }
}
