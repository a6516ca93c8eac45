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

  constructor(private readonly write: (items: T[]) => Promise<void>) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length) {
        const batch = this.waiting.splice(0);
        try {
          await this.write(batch.map((b) => b.item));
          for (const b of batch) b.resolve();
        } catch (err) {
          for (const b of batch) b.reject(err);
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
