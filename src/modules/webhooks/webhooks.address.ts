import { BlockList, isIP } from 'node:net';

/** Addresses an endpoint may never name: private, loopback, link-local, shared, multicast and reserved. */
const refused = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  refused.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  refused.addSubnet(net, bits, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const LOCAL_NAMES = /^(localhost|.*\.localhost|.*\.local|.*\.internal)$/i;

/**
 * Why an endpoint's address is refused, or null when it may be used: https only (http too when the
 * operator allows loopback), no credentials in it, and no host that is an address or a name of this
 * machine or a private network (loopback only when allowed). The delivery's connection checks the
 * address the name resolves to again (request-filtering-agent), so a name pointing inside is refused
 * there.
 */
export function refusalOf(raw: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(allowLoopback && url.protocol === 'http:')) return 'must be an https:// URL';
  if (url.username || url.password) return 'must not hold a user name or password';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  if (family) {
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (allowLoopback && loopback.check(host, type)) return null;
    if (refused.check(host, type)) return 'must not point to a private, loopback or link-local address';
    return null;
  }
  if (LOCAL_NAMES.test(host) && !(allowLoopback && /^localhost$/i.test(host)))
    return 'must not point to a name of this machine or a private network';
  return null;
}
