/**
 * Where another server is reached when all we know is its domain: its shared inbox at
 * `https://<domain>/inbox`. A domain in FEDERATION_HOST_MAP is a local test or development
 * instance without TLS, so it is spoken to over plain http.
 */
import type { Config } from '../config';

export function sharedInboxOf(config: Config, domain: string): string {
  const scheme = config.federationHostMap[domain.toLowerCase()] ? 'http' : 'https';
  return `${scheme}://${domain}/inbox`;
}
