/**
 * How another server is addressed when all we know is its domain: `https://<domain>`, its shared
 * inbox at `/inbox`. A domain in FEDERATION_HOST_MAP is a local test or development instance
 * without TLS, so it is spoken to over plain http. And how this server names its own key.
 */
import type { Config } from '../config';

export function originOf(config: Config, domain: string): string {
  const scheme = config.federationHostMap[domain.toLowerCase()] ? 'http' : 'https';
  return `${scheme}://${domain}`;
}

export function sharedInboxOf(config: Config, domain: string): string {
  return `${originOf(config, domain)}/inbox`;
}

/** The keyId this server signs with: the server actor's `#main-key` (decisions.md §6). */
export function serverKeyId(config: Config): string {
  return `${config.publicUrl}/users/${encodeURIComponent(`@${config.DOMAIN}`)}#main-key`;
}
