import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

// Addresses a server must never be talked into calling on a client's behalf (SSRF): loopback, private,
// link-local (cloud metadata at 169.254.169.254 among them), shared, documentation, multicast and reserved ranges.
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  // Local-use NAT64 (RFC 8215): what it reaches depends on the network's own translator.
  ['64:ff9b:1::', 48],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail counts as two). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (t: string) => (t ? t.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const [before, after] = [part(head), part(tail ?? '')];
  return tail === undefined
    ? before
    : [...before, ...Array(8 - before.length - after.length).fill(0), ...after];
}

/**
 * An IPv4 address inside an IPv6 one, which reaches that IPv4 host: IPv4-mapped (::ffff:0:0/96) and NAT64
 * (64:ff9b::/96), written dotted (::ffff:127.0.0.1) or in hex (64:ff9b::7f00:1).
 */
function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  const mapped = g.slice(0, 6).join(':') === '0:0:0:0:0:65535';
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  if (!mapped && !nat64) return null;
  const [hi = 0, lo = 0] = g.slice(6);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Whether an IP address is one a server may call on a stranger's word. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return isPublicAddress(v4);
    return !blocked.check(address, 'ipv6');
  }
  return !blocked.check(address, 'ipv4');
}

export class NonPublicAddressError extends Error {
  constructor(host: string) {
    super(`${host} does not resolve to a public address`);
    this.name = 'NonPublicAddressError';
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * dns.lookup for an outgoing connection that may only reach addresses `allowed` says yes to: every address the
 * name resolves to must be, and the connection uses what was checked (no second resolution for DNS rebinding to
 * swap).
 */
export function lookupAllowing(allowed: (address: string) => boolean) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number | string },
    callback: LookupCallback,
  ): void => {
    dnsLookup(hostname, { all: true, family: Number(options.family) || 0 }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      if (list.length === 0 || !list.every((a) => allowed(a.address)))
        return callback(Object.assign(new NonPublicAddressError(hostname), { code: 'ENONPUBLIC' }), []);
      if (options.all) return callback(null, list);
      const first = list[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/** dns.lookup that reaches public addresses only (see lookupAllowing). */
export const publicLookup = lookupAllowing(isPublicAddress);

/** Resolves a host name (or takes an IP literal) and says whether every address it reaches is public. */
export async function resolvesToPublic(hostname: string): Promise<boolean> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPublicAddress(host);
  return new Promise((resolve) => {
    publicLookup(host, { all: true }, (err) => resolve(!err));
  });
}
