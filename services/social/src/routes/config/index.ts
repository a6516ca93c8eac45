import { Router } from '@agora/common/http';
import type { SocialContext } from '../../context';
import { flagOptions } from '../../activities/handlers/interactions/flag';

interface Rule {
  id?: unknown;
  text?: unknown;
}
interface ReactEmoji {
  name?: unknown;
  emoji?: unknown;
}

/**
 * GET /config.json: what the web app needs before anything else: the site's name, whether
 * sign-up is open, what it asks of a new user (rules to acknowledge, an e-mail to verify), and
 * the choices it offers (reactions, reasons to report). All of it is public setting data.
 */
export default function configRoutes(ctx: SocialContext): Router {
  const r = Router();
  r.get('/', (_req, res, next) => {
    const s = ctx.stores.settings;
    Promise.all([
      s.get<{ name?: string }>('profile'),
      s.get<boolean>('registrationIsOpen'),
      s.get<boolean>('requireEmailVerification'),
      s.get<Rule[]>('rules'),
      s.get<ReactEmoji[]>('reactEmojis'),
      flagOptions(ctx).catch(() => []),
    ])
      .then(([profile, open, verify, rules, emojis, flags]) =>
        res.json({
          apiUrl: ctx.config.publicUrl,
          domain: ctx.config.DOMAIN,
          siteTitle: profile?.name ?? 'Agora',
          registrationIsOpen: open !== false,
          requireEmailVerification: verify === true,
          rules: (Array.isArray(rules) ? rules : [])
            .filter((x) => typeof x?.id === 'string' && typeof x.text === 'string')
            .map((x) => ({ id: x.id as string, text: x.text as string })),
          reactEmojis: (Array.isArray(emojis) ? emojis : [])
            .filter((x) => typeof x?.emoji === 'string')
            .map((x) => ({ emoji: x.emoji as string, name: typeof x.name === 'string' ? x.name : '' })),
          flagOptions: flags.map((f) => ({ code: f.code, label: f.label })),
        }),
      )
      .catch(next);
  });
  return r;
}
