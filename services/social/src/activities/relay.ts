/** Republishes the events of stored activities whose publish did not complete (crash, broker away). */
import type { Runtime } from '@agora/common';
import { publishEvents } from './pipeline';
import type { DomainEvent } from './types';

export function startRelay(
  rt: Runtime,
  opts: { intervalMs?: number; graceMs?: number } = {},
): () => Promise<void> {
  const interval = opts.intervalMs ?? 5000;
  const grace = opts.graceMs ?? 10_000;
  let running: Promise<void> | undefined;
  const tick = async () => {
    const stale = await rt.repos.models.Activity.find({
      published: false,
      createdAt: { $lt: new Date(Date.now() - grace) },
    })
      .sort({ createdAt: 1 })
      .limit(100)
      .lean();
    for (const a of stale) await publishEvents(rt, a.id, (a as { events?: DomainEvent[] }).events ?? []);
  };
  const timer = setInterval(() => {
    if (running) return;
    running = tick()
      .catch((err: Error) => rt.logger.warn({ err: err.message }, 'relay tick failed'))
      .finally(() => {
        running = undefined;
      });
  }, interval);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
