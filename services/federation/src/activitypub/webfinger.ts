/**
 * Discovery (RFC 7033 WebFinger, RFC 6415 host-meta): `acct:alice@<domain>` or the actor's URL →
 * its ActivityPub actor; `acct:<domain>@<domain>` → the server actor.
 */
import { BadRequest } from '@agora/common/errors';
import type { FederationContext } from '../context';
import { localIdOf, localUrlOf } from './ids';
import { ACTIVITY_JSON } from './vocab';

export interface Jrd {
  subject: string;
  aliases: string[];
  links: Array<{ rel: string; type?: string; href?: string; template?: string }>;
}

function accountOf(ctx: FederationContext, resource: string): string | undefined {
  const acct = /^acct:@?([^@\s]+)@([^@\s]+)$/i.exec(resource);
  if (acct?.[1] && acct[2]) {
    if (acct[2].toLowerCase() !== ctx.config.DOMAIN.toLowerCase()) return undefined;
    const name = acct[1].toLowerCase();
    return name === ctx.config.DOMAIN.toLowerCase()
      ? `@${ctx.config.DOMAIN}`
      : `@${name}@${ctx.config.DOMAIN}`;
  }
  if (/^https?:\/\//.test(resource)) return localIdOf(ctx.config, resource);
  return undefined;
}

/** The JRD of a local actor; undefined when the resource names no live actor here. */
export async function webfinger(ctx: FederationContext, resource: unknown): Promise<Jrd | undefined> {
  if (typeof resource !== 'string' || !resource || resource.length > 500)
    throw new BadRequest('resource: is required (acct:user@domain or an actor URL)');
  const id = accountOf(ctx, resource);
  if (!id) return undefined;
  const server = id === `@${ctx.config.DOMAIN}`;
  if (!server && !/^@[a-z0-9_]+@/.test(id)) return undefined;
  if (!server && !(await ctx.stores.users.findActiveById(id))) return undefined;
  const actor = localUrlOf(ctx.config, id)!;
  const name = server ? ctx.config.DOMAIN : id.split('@')[1]!;
  const profile = server ? ctx.config.publicUrl : `${ctx.config.publicUrl}/@${name}`;
  return {
    subject: `acct:${name}@${ctx.config.DOMAIN}`,
    aliases: [actor, profile],
    links: [
      { rel: 'self', type: ACTIVITY_JSON, href: actor },
      { rel: 'http://webfinger.net/rel/profile-page', type: 'text/html', href: profile },
    ],
  };
}

export function hostMeta(ctx: FederationContext): string {
  const template = `${ctx.config.publicUrl}/.well-known/webfinger?resource={uri}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">',
    `  <Link rel="lrdd" type="application/jrd+json" template="${template}"/>`,
    '</XRD>',
    '',
  ].join('\n');
}
