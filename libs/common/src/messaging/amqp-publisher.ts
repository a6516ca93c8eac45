/**
 * Publishing over one ConfirmChannel per connection. Publishes are pipelined: each one writes
 * its frames at once and resolves on its own broker confirm (callback form), so N concurrent
 * publishes cost one round trip, not N. While the connection is down, publishes wait for the
 * next channel until their deadline; a publish whose channel died before the confirm is sent
 * again on the next channel (the outcome was unknown, so at-least-once, never at-most-once).
 */
import type { ConfirmChannel, Options } from 'amqplib';
import { BusClosedError, PublishTimeoutError } from './types';

interface Waiter {
  resolve: (ch: ConfirmChannel) => void;
  reject: (err: Error) => void;
}

export class Publisher {
  private channel: ConfirmChannel | undefined;
  private waiters: Waiter[] = [];
  /** Set while the socket buffer is full; publishes queue behind it instead of piling up. */
  private drained: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly onChannelLost: (ch: ConfirmChannel) => void) {}

  get connected(): boolean {
    return this.channel !== undefined;
  }

  attach(ch: ConfirmChannel): void {
    this.channel = ch;
    this.drained = undefined;
    ch.on('close', () => {
      if (this.channel !== ch) return;
      this.channel = undefined;
      this.onChannelLost(ch);
    });
    for (const w of this.waiters.splice(0)) w.resolve(ch);
  }

  /** Stop accepting publishes; waiting ones fail. Channels close with their connection. */
  close(): void {
    this.closed = true;
    for (const w of this.waiters.splice(0)) w.reject(new BusClosedError());
  }

  async send(
    exchange: string,
    routingKey: string,
    content: Buffer,
    options: Options.Publish,
    deadline: number,
  ): Promise<void> {
    for (;;) {
      const ch = await this.channelBefore(deadline);
      try {
        await this.publishOn(ch, exchange, routingKey, content, options, deadline);
        return;
      } catch (err) {
        // Still our channel: the broker nacked or the message was refused (e.g. headers too
        // large). Sending again would not help.
        if (this.channel === ch || err instanceof PublishTimeoutError) throw err;
      }
    }
  }

  private channelBefore(deadline: number): Promise<ConfirmChannel> {
    if (this.closed) return Promise.reject(new BusClosedError());
    if (this.channel) return Promise.resolve(this.channel);
    return new Promise<ConfirmChannel>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (ch) => (clearTimeout(timer), resolve(ch)),
        reject: (err) => (clearTimeout(timer), reject(err)),
      };
      const timer = setTimeout(
        () => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          reject(
            new PublishTimeoutError('Message broker unreachable: publish timed out waiting for a connection'),
          );
        },
        Math.max(0, deadline - Date.now()),
      );
      this.waiters.push(waiter);
    });
  }

  private async publishOn(
    ch: ConfirmChannel,
    exchange: string,
    routingKey: string,
    content: Buffer,
    options: Options.Publish,
    deadline: number,
  ): Promise<void> {
    if (this.drained) await this.drained;
    let timer: NodeJS.Timeout | undefined;
    const confirmed = new Promise<void>((resolve, reject) => {
      // Throws synchronously when the channel is already closed; the executor turns that into a rejection.
      const flushed = ch.publish(exchange, routingKey, content, options, (err: unknown) =>
        err ? reject(err instanceof Error ? err : new Error('Publish failed', { cause: err })) : resolve(),
      );
      if (!flushed && !this.drained) {
        const drained: Promise<void> = waitForDrain(ch).then(() => {
          if (this.drained === drained) this.drained = undefined;
        });
        this.drained = drained;
      }
    });
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new PublishTimeoutError('Message broker did not confirm the publish in time')),
        Math.max(0, deadline - Date.now()),
      );
    });
    try {
      await Promise.race([confirmed, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function waitForDrain(ch: ConfirmChannel): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      ch.off('drain', done);
      ch.off('close', done);
      resolve();
    };
    ch.on('drain', done);
    ch.on('close', done);
  });
}
