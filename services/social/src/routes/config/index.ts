import { Router } from '@agora/common';
import type { SocialContext } from '../../context';

/** GET /config.json: what the web app needs before anything else. */
export default function configRoutes({ rt }: SocialContext): Router {
  const r = Router();
  r.get('/', (_req, res, next) => {
    Promise.all([
      rt.repos.settings.get<{ name?: string }>('profile'),
      rt.repos.settings.get<boolean>('registrationIsOpen'),
    ])
      .then(([profile, open]) =>
        res.json({
          apiUrl: rt.config.publicUrl,
          domain: rt.config.DOMAIN,
          siteTitle: profile?.name ?? 'Agora',
          registrationIsOpen: open !== false,
        }),
      )
      .catch(next);
  });
  return r;
}
