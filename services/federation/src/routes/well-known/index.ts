import { createPublicKey } from 'node:crypto';
import { keyIdOf } from '@agora/common/auth';
import { Router } from '@agora/common/http';
import type { FederationContext } from '../../context';

/** /.well-known: the server key as JWKS (decisions.md §3) and the NodeInfo pointer. */
export default function wellKnownRoutes(ctx: FederationContext): Router {
  const r = Router();
  r.get('/jwks.json', (_req, res, next) => {
    ctx.stores.settings
      .get<string>('publicKey')
      .then((pem) => {
        const keys = pem
          ? [
              {
                ...createPublicKey(pem).export({ format: 'jwk' }),
                kid: keyIdOf(pem),
                alg: 'RS256',
                use: 'sig',
              },
            ]
          : [];
        res.setHeader('Cache-Control', 'public, max-age=300');
        res.json({ keys });
      })
      .catch(next);
  });
  r.get('/nodeinfo', (_req, res) => {
    res.json({
      links: [
        {
          rel: 'http://nodeinfo.diaspora.software/ns/schema/2.0',
          href: `${ctx.config.publicUrl}/nodeinfo/2.0`,
        },
      ],
    });
  });
  return r;
}
