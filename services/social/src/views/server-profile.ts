/**
 * The server's public description (behaviour-notes §3.1 `GET /`), answered at `GET /` and
 * `GET /profile`: what the client library reads on start-up (`getServerInfo`) and what a peer
 * reads to know this server. Every public, non-redacted setting is included under `settings`.
 */
import type { SocialContext } from '../context';

interface Profile {
  name?: string;
  subtitle?: string;
  description?: string;
  icon?: string;
  image?: string;
  location?: unknown;
  urls?: string[];
}

/** Server-relative image paths become absolute, so a peer can show them. */
function absolute(base: string, url: string | undefined): string | null {
  if (!url) return null;
  return url.startsWith('/') ? `${base}${url}` : url;
}

export async function serverProfile(ctx: SocialContext) {
  const base = ctx.config.publicUrl;
  const domain = ctx.config.DOMAIN;
  const settings = await ctx.stores.settings.publicValues();
  const profile = (settings.profile ?? {}) as Profile;
  return {
    '@context': 'https://www.w3.org/ns/activitystreams',
    type: 'Service',
    id: `@${domain}`,
    url: base,
    name: profile.name || 'Agora',
    subtitle: profile.subtitle ?? '',
    description: profile.description ?? '',
    domain,
    icon: absolute(base, profile.icon),
    image: absolute(base, profile.image),
    location: profile.location ?? null,
    registrationIsOpen: settings.registrationIsOpen !== false,
    endpoints: {
      users: '/users',
      posts: '/posts',
      circles: '/circles',
      groups: '/groups',
      pages: '/pages',
      bookmarks: '/bookmarks',
      recommendations: '/recommendations',
      outbox: '/outbox',
      inbox: '/inbox',
      nodeinfo: '/.well-known/nodeinfo',
    },
    settings,
  };
}
