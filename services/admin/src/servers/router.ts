/**
 * /admin/servers (docs/admin.md, docs/federation.md "Known servers" and "Blocking a domain"):
 * every other server this one knows, with its state, and the admin's switch to block a domain.
 * Admins only (the admin guard), since the list shows operational detail (breaker, backlog,
 * blocks) that is nobody else's business.
 */
import { z } from 'zod';
import { BadRequest, NotFound } from '@agora/common/errors';
import { Router, collectionFor, handler, parsePaging, setAll } from '@agora/common/http';
import { parseInput as parse } from '@agora/common/validation';
import type { AdminContext } from '../context';
import { setBlocked } from './block';
import { presentServer } from './present';

export const blockBody = z.object({
  blocked: z.boolean(),
  reason: z.string().trim().max(500).optional(),
});

/** A domain as given (`b.example`, `@b.example`, any case), checked and lower-cased. */
export function parseDomain(raw: string | undefined): string {
  const domain = (raw ?? '').trim().replace(/^@/, '').toLowerCase();
  if (domain.length > 253 || !/^[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/.test(domain))
    throw new BadRequest('domain: must be a domain name, e.g. social.example');
  return domain;
}

export function serversRouter(ctx: AdminContext): Router {
  const r = Router();
  const { remoteServers, parkedDeliveries } = ctx.stores;
  const counts = async (domain: string) => ({
    heldDeliveries: await parkedDeliveries.count(domain, 'held'),
    deadDeliveries: await parkedDeliveries.count(domain, 'dead'),
  });
  const load = async (domain: string) => {
    const row = await remoteServers.byDomain(domain);
    if (!row) throw new NotFound('Server not found');
    return presentServer(row, await counts(domain));
  };

  r.get(
    '/',
    handler(async ({ req, query, set }) => {
      const paging = parsePaging(query);
      const [total, rows] = await Promise.all([
        remoteServers.count(),
        remoteServers.page(paging.skip, paging.limit),
      ]);
      const items = await Promise.all(rows.map(async (row) => presentServer(row, await counts(row.domain))));
      setAll(set, collectionFor(ctx.config.publicUrl, req, paging, total, items));
    }),
  );

  r.get(
    '/:domain',
    handler(async ({ params, set }) => {
      const domain = parseDomain(params.domain);
      const server = await load(domain);
      const dead = await parkedDeliveries.deadOf(domain, 20);
      set('server', server);
      set(
        'deadDeliveries',
        dead.map((d) => ({ id: d._id, objectKey: d.objectKey, attempts: d.attempts, reason: d.lastError })),
      );
    }),
  );

  r.patch(
    '/:domain',
    handler(async ({ params, body, user, set }) => {
      const domain = parseDomain(params.domain);
      if (domain === ctx.config.DOMAIN.toLowerCase())
        throw new BadRequest("domain: this server's own domain cannot be blocked");
      const input = parse(blockBody, body);
      const changed = await setBlocked(ctx, user!.id, domain, input.blocked, input.reason);
      set('ok', true);
      set('changed', changed);
      set('server', await load(domain));
    }),
  );
  return r;
}
