import { expect } from 'chai';
import { isPublicAddress } from '../../server/src/numbers/ip-ranges.js';

const notPublic: [string, string][] = [
  ['0.0.0.0', 'the unspecified IPv4 address'],
  ['0.1.2.3', 'the "this" network 0/8'],
  ['10.0.0.1', 'private 10/8'],
  ['10.255.255.255', 'the top of private 10/8'],
  ['100.64.0.1', 'carrier-grade NAT 100.64/10'],
  ['100.127.255.255', 'the top of carrier-grade NAT 100.64/10'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'the top of loopback 127/8'],
  ['169.254.169.254', 'the link-local cloud metadata address'],
  ['172.16.0.1', 'private 172.16/12'],
  ['172.31.255.255', 'the top of private 172.16/12'],
  ['192.0.0.8', 'IETF protocol assignments 192.0.0/24'],
  ['192.0.2.1', 'documentation 192.0.2/24'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['192.168.1.1', 'private 192.168/16'],
  ['198.18.0.1', 'benchmarking 198.18/15'],
  ['198.51.100.7', 'documentation 198.51.100/24'],
  ['203.0.113.9', 'documentation 203.0.113/24'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast (SSDP)'],
  ['240.0.0.1', 'reserved 240/4'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'the unspecified IPv6 address'],
  ['::1', 'the IPv6 loopback'],
  ['fc00::1', 'unique local fc00::/7'],
  ['fd12:3456:789a::1', 'unique local fd00::/8'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local with a zone'],
  ['fec0::1', 'deprecated site-local'],
  ['ff02::1', 'IPv6 multicast'],
  ['2001:db8::1', 'IPv6 documentation'],
  ['2001:0:4136:e378::1', 'Teredo'],
  ['100::1', 'IPv6 discard'],
  ['64:ff9b:1::1', 'local-use NAT64'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback, dotted'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hexadecimal'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['::ffff:169.254.169.254', 'IPv4-mapped metadata address'],
  ['::127.0.0.1', 'IPv4-compatible loopback'],
  ['64:ff9b::a9fe:a9fe', 'the metadata address through NAT64'],
  ['64:ff9b::10.0.0.1', 'a private address through NAT64, dotted'],
  ['2002:a9fe:a9fe::', 'the metadata address through 6to4'],
  ['2002:7f00:1::1', 'loopback through 6to4'],
  ['', 'an empty string'],
  ['localhost', 'a name'],
  ['256.1.1.1', 'an IPv4 address out of range'],
  ['1.2.3', 'a three-part address'],
];

const isPublic: [string, string][] = [
  ['8.8.8.8', 'a public DNS resolver'],
  ['93.184.216.34', 'a public web server'],
  ['1.1.1.1', 'a public anycast address'],
  ['9.255.255.255', 'the address just below 10/8'],
  ['11.0.0.0', 'the address just above 10/8'],
  ['100.63.255.255', 'the address just below 100.64/10'],
  ['100.128.0.0', 'the address just above 100.64/10'],
  ['172.15.255.255', 'the address just below 172.16/12'],
  ['172.32.0.0', 'the address just above 172.16/12'],
  ['223.255.255.255', 'the address just below multicast'],
  ['2606:4700:4700::1111', 'a public IPv6 resolver'],
  ['2001:4860:4860::8888', 'another public IPv6 resolver'],
  ['::ffff:8.8.8.8', 'an IPv4-mapped public address'],
  ['64:ff9b::808:808', 'a public address through NAT64'],
  ['2002:808:808::1', 'a public address through 6to4'],
];

describe('isPublicAddress', () => {
  for (const [ip, what] of notPublic) {
    it(`refuses ${what} (${JSON.stringify(ip)})`, () => {
      expect(isPublicAddress(ip)).to.equal(false);
    });
  }
  for (const [ip, what] of isPublic) {
    it(`accepts ${what} (${ip})`, () => {
      expect(isPublicAddress(ip)).to.equal(true);
    });
  }
});
