/**
 * A bounded write load for the cluster tier: a few writers, each in a loop of one public post
 * (POST /outbox with an Idempotency-Key, as a client that retries would send) and one read of
 * it, with a short pause. Every answer is counted: a 201 is an accepted write (its id is kept to
 * be read back later), anything else (or a failed connection) is a failed request.
 */
import { randomUUID } from 'node:crypto';
import type { Actor } from '../harness/actors';
import type { client } from '../harness/standalone';

export interface Failure {
  what: string;
  status: number;
  body: string;
  at: string;
}

export interface LoadReport {
  requests: number;
  accepted: string[];
  failures: Failure[];
}

export interface Load {
  /** Stops the writers after their current request; resolves with what they saw. */
  stop(): Promise<LoadReport>;
}

const PAUSE_MS = 50;

export function startLoad(api: ReturnType<typeof client>, writers: readonly Actor[], label: string): Load {
  const report: LoadReport = { requests: 0, accepted: [], failures: [] };
  let running = true;
  const fail = (what: string, status: number, body: unknown) =>
    report.failures.push({
      what,
      status,
      body: JSON.stringify(body).slice(0, 300),
      at: new Date().toISOString(),
    });
  const attempt = async <T>(what: string, fn: () => Promise<{ status: number; body: T }>) => {
    report.requests++;
    try {
      return await fn();
    } catch (err) {
      fail(what, 0, (err as Error).message);
      return undefined;
    }
  };
  const loop = async (who: Actor) => {
    for (let n = 0; running; n++) {
      const sent = await attempt('POST /outbox', () =>
        api.post<{ createdId?: string }>(
          '/outbox',
          {
            type: 'Create',
            objectType: 'Post',
            to: '@public',
            object: { content: `${label} ${who.username} #${n}` },
          },
          { token: who.token, headers: { 'idempotency-key': randomUUID() } },
        ),
      );
      if (sent?.status === 201 && sent.body.createdId) {
        report.accepted.push(sent.body.createdId);
        const read = await attempt('GET /posts/:id', () =>
          api.get(`/posts/${sent.body.createdId!}`, { token: who.token }),
        );
        if (read && read.status !== 200) fail('GET /posts/:id', read.status, read.body);
      } else if (sent) fail('POST /outbox', sent.status, sent.body);
      await new Promise((r) => setTimeout(r, PAUSE_MS));
    }
  };
  const done = Promise.all(writers.map(loop));
  return {
    async stop() {
      running = false;
      await done;
      return report;
    },
  };
}
