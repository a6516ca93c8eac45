import { AGORA_PROTOCOL, AGORA_PROTOCOL_VERSION, AGORA_SOFTWARE } from '@agora/common/federation';
import { Router } from '@agora/common/http';
import type { FederationContext } from '../../context';
import { serverActorUrl } from '../../activitypub/ids';

export const SOFTWARE_NAME = AGORA_SOFTWARE;
export const SOFTWARE_VERSION = '0.1.0';

/**
 * GET /nodeinfo/2.0: what this server is. Peers recognise a compatible server by the software
 * name or by `metadata.federation` (the protocol, its version and where pulls are answered);
 * NodeInfo's own `protocols` lists only the protocols its schema knows.
 */
export default function nodeinfoRoutes(ctx: FederationContext): Router {
  const r = Router();
  // 2.1 adds `software.repository`/`homepage`; the document is otherwise the same.
  r.get(['/2.0', '/2.1'], (req, res, next) => {
    const version = req.path.endsWith('2.1') ? '2.1' : '2.0';
    Promise.all([
      ctx.stores.users.count(),
      ctx.stores.settings.get<boolean>('registrationIsOpen'),
      ctx.stores.settings.get<{ name?: string }>('profile'),
    ])
      .then(([users, open, profile]) =>
        res.json({
          version,
          software: { name: SOFTWARE_NAME, version: SOFTWARE_VERSION },
          protocols: ['activitypub'],
          services: { inbound: [], outbound: [] },
          openRegistrations: open !== false,
          usage: { users: { total: users } },
          metadata: {
            siteTitle: profile?.name ?? 'Agora',
            domain: ctx.config.DOMAIN,
            instanceActor: `${ctx.config.publicUrl}/users/@${ctx.config.DOMAIN}`,
            activityPubActor: serverActorUrl(ctx.config),
            federation: {
              protocol: AGORA_PROTOCOL,
              version: AGORA_PROTOCOL_VERSION,
              inbox: `${ctx.config.publicUrl}/inbox`,
              outbox: `${ctx.config.publicUrl}/outbox`,
            },
          },
        }),
      )
      .catch(next);
  });
  return r;
}
