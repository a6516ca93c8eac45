/**
 * The poll worker: every FEDERATION_POLL_SECONDS, each server whose users are members of local
 * circles is pulled once. A server is claimed by moving its `nextPollAt` forward with a
 * conditional update, so among several federation replicas exactly one polls it; failures back
 * off (the interval doubled per failure in a row, at most 6 hours).
 */
import { nodeInfoOf } from '@agora/common/federation';
import type { FederationContext } from '../context';
import { pullFrom } from './pull';
import { pollTargets, type PollTarget } from './targets';

const MAX_BACKOFF_MS = 6 * 3600_000;

export async function pollOnce(ctx: FederationContext): Promise<void> {
  const intervalMs = ctx.config.FEDERATION_POLL_SECONDS * 1000;
  for (const target of await pollTargets(ctx)) {
    // Nothing is pulled from a blocked domain, nor from a server that does not speak this protocol.
    if (await ctx.peers.blocks.isBlocked(target.domain)) continue;
    if (!(await speaksAgora(ctx, target.domain))) continue;
    await pollTarget(ctx, target, intervalMs);
  }
}

async function pollTarget(ctx: FederationContext, target: PollTarget, intervalMs: number): Promise<void> {
  const now = new Date();
  const servers = ctx.stores.remoteServers;
  const server = await servers.claimPoll(target.domain, now, new Date(now.getTime() + intervalMs));
  if (!server) return;
  try {
    const recorded = await pullFrom(ctx, target, server.lastPolledAt ?? null);
    await servers.pollSucceeded(target.domain, now);
    await ctx.peers.answered(target.domain, 'pull');
    ctx.logger.debug({ domain: target.domain, recorded }, 'pulled');
  } catch (err) {
    const errors = (server.errorCount ?? 0) + 1;
    const backoff = Math.min(MAX_BACKOFF_MS, intervalMs * 2 ** errors);
    await servers.pollFailed(
      target.domain,
      errors,
      (err as Error).message,
      new Date(now.getTime() + backoff),
    );
    ctx.logger.warn(
      { domain: target.domain, err: (err as Error).message, retryInMs: backoff },
      'pull failed',
    );
  }
}

/**
 * Whether a server's NodeInfo (cached on its row, read again when stale) says it speaks this
 * protocol. The answer is what the admin's servers list shows; a server that does not is never
 * pulled (it would answer 404 to every pull, backing off for ever).
 */
async function speaksAgora(ctx: FederationContext, domain: string): Promise<boolean> {
  const info = await nodeInfoOf(
    { fetch: ctx.federation.fetch, config: ctx.config, servers: ctx.stores.remoteServers },
    domain,
  );
  if (!info.compatible)
    ctx.logger.debug(
      { domain, software: info.software, error: info.error },
      'not polled: not a compatible server',
    );
  return info.compatible;
}

/** Starts polling (off when FEDERATION_POLL_SECONDS is 0); returns the stop function. */
export function startPoller(ctx: FederationContext): () => Promise<void> {
  const seconds = ctx.config.FEDERATION_POLL_SECONDS;
  if (!seconds) return () => Promise.resolve();
  let running: Promise<void> | undefined;
  const timer = setInterval(
    () => {
      if (running) return;
      running = pollOnce(ctx)
        .catch((err: Error) => ctx.logger.warn({ err: err.message }, 'poll tick failed'))
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
