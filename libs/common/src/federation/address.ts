/**
 * Which IP addresses a federation fetch may never connect to (quality-bars.md, SSRF): anything
 * that reaches this host, its private networks or special-purpose space. IPv6 forms that embed an
 * IPv4 address (mapped, NAT64) are judged by the address they embed, so `::ffff:127.0.0.1` is
 * loopback. Anything that does not parse is refused.
 */
import { isIPv4, isIPv6 } from 'node:net';

interface Cidr {
  bytes: number[];
  bits: number;
}

const V4_FORBIDDEN = [
  '0.0.0.0/8', // "this network", includes the unspecified address
  '10.0.0.0/8',
  '100.64.0.0/10', // CGNAT
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation
  '192.88.99.0/24', // 6to4 relay anycast
  '192.168.0.0/16',
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, includes broadcast
].map((c) => cidr(c, parseIPv4));

const V6_FORBIDDEN = [
  '::/96', // unspecified, loopback and the deprecated IPv4-compatible form
  '::ffff:0:0:0/96', // IPv4-translated (SIIT)
  '64:ff9b:1::/48', // local-use NAT64
  '100::/64', // discard-only
  '2001::/23', // IETF protocol assignments, includes Teredo
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4: tunnels to an arbitrary IPv4 address
  '3fff::/20', // documentation
  'fc00::/7', // unique local
  'fe80::/10', // link-local
  'fec0::/10', // deprecated site-local
  'ff00::/8', // multicast
].map((c) => cidr(c, parseIPv6));

/** IPv6 prefixes whose last 32 bits are an IPv4 address that the packet really reaches. */
const V6_EMBEDDING_V4 = ['::ffff:0:0/96', '64:ff9b::/96'].map((c) => cidr(c, parseIPv6));

export function isForbiddenAddress(ip: string): boolean {
  const v4 = parseIPv4(ip);
  if (v4) return V4_FORBIDDEN.some((c) => matches(v4, c));
  const v6 = parseIPv6(ip.replace(/%.*$/, ''));
  if (!v6) return true;
  if (V6_EMBEDDING_V4.some((c) => matches(v6, c))) return isForbiddenAddress(v6.slice(12).join('.'));
  return V6_FORBIDDEN.some((c) => matches(v6, c));
}

function parseIPv4(ip: string): number[] | null {
  return isIPv4(ip) ? ip.split('.').map(Number) : null;
}

function parseIPv6(ip: string): number[] | null {
  if (!isIPv6(ip)) return null;
  let text = ip.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (s: string) => (s ? s.split(':') : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const words = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  if (words.length !== 8) return null;
  return words.flatMap((w) => {
    const n = parseInt(w, 16);
    return [n >> 8, n & 0xff];
  });
}

function cidr(text: string, parse: (ip: string) => number[] | null): Cidr {
  const [ip = '', bits = ''] = text.split('/');
  const bytes = parse(ip);
  if (!bytes) throw new Error(`bad CIDR ${text}`);
  return { bytes, bits: Number(bits) };
}

function matches(bytes: number[], { bytes: prefix, bits }: Cidr): boolean {
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i / 8] ?? 0) & mask) !== ((prefix[i / 8] ?? 0) & mask)) return false;
  }
  return true;
}
