/**
 * The poll worker: every FEDERATION_POLL_SECONDS, each server whose users are members of local
 * circles is pulled once. A server is claimed by moving its `nextPollAt` forward with a
 * conditional update, so among several federation replicas exactly one polls it; failures back
 * off (the interval doubled per failure in a row, at most 6 hours).
 */
import type { Runtime } from '@agora/common/runtime';
import { pullFrom } from './pull';
import { pollTargets, type PollTarget } from './targets';

const MAX_BACKOFF_MS = 6 * 3600_000;

export async function pollOnce(rt: Runtime): Promise<void> {
  const intervalMs = rt.config.FEDERATION_POLL_SECONDS * 1000;
  for (const target of await pollTargets(rt)) await pollTarget(rt, target, intervalMs);
}

async function pollTarget(rt: Runtime, target: PollTarget, intervalMs: number): Promise<void> {
  const now = new Date();
  const servers = rt.repos.remoteServers;
  const server = await servers.claimPoll(target.domain, now, new Date(now.getTime() + intervalMs));
  if (!server) return;
  try {
    const recorded = await pullFrom(rt, target, server.lastPolledAt ?? null);
    await servers.pollSucceeded(target.domain, now);
    rt.logger.debug({ domain: target.domain, recorded }, 'pulled');
  } catch (err) {
    const errors = (server.errorCount ?? 0) + 1;
    const backoff = Math.min(MAX_BACKOFF_MS, intervalMs * 2 ** errors);
    await servers.pollFailed(
      target.domain,
      errors,
      (err as Error).message,
      new Date(now.getTime() + backoff),
    );
    rt.logger.warn({ domain: target.domain, err: (err as Error).message, retryInMs: backoff }, 'pull failed');
  }
}

/** Starts polling (off when FEDERATION_POLL_SECONDS is 0); returns the stop function. */
export function startPoller(rt: Runtime): () => Promise<void> {
  const seconds = rt.config.FEDERATION_POLL_SECONDS;
  if (!seconds) return () => Promise.resolve();
  let running: Promise<void> | undefined;
  const timer = setInterval(
    () => {
      if (running) return;
      running = pollOnce(rt)
        .catch((err: Error) => rt.logger.warn({ err: err.message }, 'poll tick failed'))
        .finally(() => {
          running = undefined;
        });
    },
    Math.min(seconds, 60) * 1000,
  );
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
