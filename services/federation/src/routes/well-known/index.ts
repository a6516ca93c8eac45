import { createPublicKey } from 'node:crypto';
import { keyIdOf } from '@agora/common/auth';
import { Router } from '@agora/common/http';
import type { FederationContext } from '../../context';
import { hostMeta, webfinger } from '../../activitypub/webfinger';

/**
 * /.well-known: the server key as JWKS (decisions.md §3), the NodeInfo pointer (2.0 and 2.1), and
 * ActivityPub discovery: WebFinger and host-meta (docs/federation.md, "ActivityPub").
 */
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
        {
          rel: 'http://nodeinfo.diaspora.software/ns/schema/2.1',
          href: `${ctx.config.publicUrl}/nodeinfo/2.1`,
        },
      ],
    });
  });
  r.get('/webfinger', (req, res, next) => {
    webfinger(ctx, req.query.resource)
      .then((jrd) => {
        if (!jrd) return res.status(404).json({ error: 'No such account here' });
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.status(200).type('application/jrd+json').send(JSON.stringify(jrd));
      })
      .catch(next);
  });
  r.get('/host-meta', (_req, res) => {
    res.status(200).type('application/xrd+xml').send(hostMeta(ctx));
  });
  return r;
}
