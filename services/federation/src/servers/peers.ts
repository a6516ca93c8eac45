/**
 * What the federation service knows about another server while it runs, in one place: whether it
 * answers (the circuit breaker), when it was last heard from, and whether an admin blocked it.
 *
 * Recovery (docs/federation.md, "Held deliveries"): a server is taken to be back as soon as it is
 * heard from in any way (a delivery it accepted, a verified request it sent, a pull it answered, a
 * probe it answered). If its circuit was open, it is closed at once and everything held for it is
 * released and drained, instead of waiting out the cool-down.
 *
 * The breaker's state and the last contact are written to the server's row (the admin's servers
 * list reads it, from whichever process), but only when they change, or at most every
 * SEEN_EVERY_MS: not once per delivery.
 */
import { domainBlocks, nodeInfoOf, type DomainBlocks } from '@agora/common/federation';
import type { FederationContext } from '../context';

export type Contact = 'delivery' | 'inbound' | 'pull' | 'probe';

export interface Peers {
  blocks: DomainBlocks;
  /** The server answered: the circuit closes; if it was open, what is held for it goes now. */
  answered(domain: string, via: Contact): Promise<void>;
  /** A transient failure: counted by the breaker; an opening is recorded. */
  failed(domain: string): Promise<void>;
  /** Drain a domain's held deliveries now, or at `at` (epoch ms). Set by the drainer once it runs. */
  wake(domain: string, at?: number): void;
  setWake(wake: (domain: string, at?: number) => void): void;
}

const SEEN_EVERY_MS = 30_000;

export function createPeers(ctx: Omit<FederationContext, 'peers'>): Peers {
  const { breaker } = ctx.federation;
  const servers = ctx.stores.remoteServers;
  const lastSeen = new Map<string, number>();
  /** The circuit as last written: 0 closed, else the open-until time. */
  const circuit = new Map<string, number>();
  let wake: (domain: string, at?: number) => void = () => undefined;

  async function recordClosed(domain: string) {
    if (circuit.get(domain) === 0) return;
    circuit.set(domain, 0);
    await servers.recordCircuit(domain, { state: 'closed', until: null, at: new Date() });
  }

  return {
    blocks: domainBlocks(servers, ctx.stamps),
    async answered(domain, via) {
      const view = await breaker.inspect(domain);
      const wasDown = view.state !== 'closed';
      if (wasDown || view.failures > 0) await breaker.success(domain);
      const now = Date.now();
      if (now - (lastSeen.get(domain) ?? 0) >= SEEN_EVERY_MS) {
        lastSeen.set(domain, now);
        await servers.seen(domain, via, new Date(now));
        // What it is, for the servers list (read once, then when stale); never in the way.
        nodeInfoOf({ fetch: ctx.federation.fetch, config: ctx.config, servers }, domain).catch((err: Error) =>
          ctx.logger.debug({ domain, err: err.message }, 'NodeInfo read failed'),
        );
      }
      if (!wasDown) {
        if (!circuit.has(domain)) await recordClosed(domain);
        return;
      }
      await recordClosed(domain);
      const released = await ctx.stores.parkedDeliveries.release(domain);
      ctx.logger.info({ domain, via, released }, 'server answers again; held deliveries released');
      wake(domain);
    },
    async failed(domain) {
      await breaker.failure(domain);
      const view = await breaker.inspect(domain);
      if (view.state !== 'open') return;
      const until = Date.now() + view.openForMs;
      if (Math.abs((circuit.get(domain) ?? 0) - until) < 1000) return;
      circuit.set(domain, until);
      await servers.recordCircuit(domain, { state: 'open', until: new Date(until), at: new Date() });
      ctx.logger.warn({ domain, openForMs: view.openForMs }, 'circuit open: deliveries held');
    },
    wake: (domain, at) => wake(domain, at),
    setWake(fn) {
      wake = fn;
    },
  };
}
