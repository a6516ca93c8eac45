/**
 * The DNS lookup that federation sockets connect through. The address check happens here, at
 * connect time, on the very answers the socket then uses: nothing can re-resolve the name between
 * the check and the connection (DNS rebinding). Every answer is checked and one bad answer refuses
 * them all, so a name that mixes public and private records cannot be used to reach the private one.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isForbiddenAddress } from './address';

/** Resolves a host name to every address it has (node:dns `lookup` with `all: true` by default). */
export type Resolver = (hostname: string, family: number) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname, family) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, family }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

/** Raised inside the socket; safe-fetch turns it into a typed error without the address. */
export class ForbiddenAddressError extends Error {
  override readonly name = 'ForbiddenAddressError';
  readonly code = 'EFORBIDDENADDRESS';
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`${hostname} resolves to a forbidden address`);
  }
}

/** Allows what isForbiddenAddress allows, plus the listed addresses; everything when allowPrivate. */
export function addressPolicy(
  allowPrivate: boolean,
  allowIps: readonly string[] = [],
): (ip: string) => boolean {
  const allowed = new Set(allowIps);
  return (ip) => allowPrivate || allowed.has(ip) || !isForbiddenAddress(ip);
}

export function guardedLookup({
  allowed,
  resolver = systemResolver,
}: {
  allowed: (ip: string) => boolean;
  resolver?: Resolver;
}): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    resolver(hostname, familyNumber(options.family)).then(
      (addresses) => {
        const bad = addresses.find((a) => !allowed(a.address));
        const first = addresses[0];
        if (bad) callback(new ForbiddenAddressError(hostname, bad.address), '', 0);
        else if (!first)
          callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        else if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

function familyNumber(family: LookupOptions['family']): number {
  if (family === 'IPv4') return 4;
  if (family === 'IPv6') return 6;
  return family ?? 0;
}
