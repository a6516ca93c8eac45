/** The SSRF address table (GoToSocial sanitizer_test.go, Fedify's CVEs): what is refused and what is not. */
import { isForbiddenAddress } from './address';

describe('isForbiddenAddress refuses', () => {
  test.each([
    ['private 10/8', '10.0.0.1'],
    ['private 172.16/12', '172.16.0.1'],
    ['private 172.16/12, top', '172.31.255.255'],
    ['private 192.168/16', '192.168.1.20'],
    ['loopback', '127.0.0.1'],
    ['loopback, anywhere in 127/8', '127.255.10.3'],
    ['link-local (cloud metadata)', '169.254.169.254'],
    ['CGNAT', '100.64.0.1'],
    ['CGNAT, top', '100.127.255.254'],
    ['unspecified', '0.0.0.0'],
    ['this network 0/8', '0.1.2.3'],
    ['IETF assignments 192.0.0/24', '192.0.0.8'],
    ['benchmarking 198.18/15', '198.19.0.1'],
    ['documentation', '203.0.113.5'],
    ['multicast', '224.0.0.251'],
    ['reserved 240/4', '240.0.0.1'],
    ['broadcast', '255.255.255.255'],
    ['IPv6 loopback', '::1'],
    ['IPv6 unspecified', '::'],
    ['IPv6 link-local', 'fe80::1'],
    ['IPv6 link-local, top of fe80::/10', 'febf:ffff::1'],
    ['IPv6 link-local with a zone', 'fe80::1%eth0'],
    ['unique local fc00::/7', 'fd12:3456::1'],
    ['unique local, fc half', 'fc00::1'],
    ['IPv6 multicast', 'ff02::1'],
    ['mapped loopback, dotted', '::ffff:127.0.0.1'],
    ['mapped loopback, hex', '::ffff:7f00:1'],
    ['mapped loopback, expanded', '0:0:0:0:0:ffff:7f00:0001'],
    ['mapped private', '::ffff:10.1.2.3'],
    ['mapped metadata', '::ffff:a9fe:a9fe'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['IPv4-compatible, hex', '::7f00:1'],
    ['IPv4-compatible public (deprecated form)', '::8.8.8.8'],
    ['NAT64 of a private address', '64:ff9b::10.0.0.1'],
    ['6to4', '2002:7f00:1::1'],
    ['Teredo', '2001:0:4136:e378::1'],
    ['IPv6 documentation', '2001:db8::1'],
    ['not an address', 'localhost'],
    ['empty', ''],
    ['IPv4 with a leading zero (ambiguous octal)', '0177.0.0.1'],
  ])('%s (%s)', (_, ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });
});

describe('isForbiddenAddress allows', () => {
  test.each([
    ['public IPv4', '93.184.215.14'],
    ['just below 172.16/12', '172.15.255.255'],
    ['just above 172.16/12', '172.32.0.1'],
    ['just above CGNAT', '100.128.0.1'],
    ['just below 127/8', '126.255.255.255'],
    ['public IPv6', '2606:4700:4700::1111'],
    ['public IPv6 near 2001::/23', '2001:4860:4860::8888'],
    ['mapped public', '::ffff:8.8.8.8'],
    ['NAT64 of a public address', '64:ff9b::808:808'],
  ])('%s (%s)', (_, ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});
