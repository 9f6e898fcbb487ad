import net from 'node:net';

/**
 * The addresses a notification may not be sent to unless VARSETD_NOTIFICATIONS_ALLOW_PRIVATE
 * says so: private, loopback, link-local, shared (carrier-grade NAT), unspecified, multicast and
 * reserved ranges, in IPv4 and IPv6 (an IPv4 address mapped into IPv6 counts as itself). So a
 * configuration cannot make varsetd reach the services on its own host or network.
 */
const REFUSED = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  REFUSED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  REFUSED.addSubnet(network, prefix, 'ipv6');
}

/** Whether `address` (an IP address) is one notifications are not sent to by default. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return REFUSED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A URL's host as an IP address, when it is one (`[::1]` → `::1`); undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return net.isIP(bare) ? bare : undefined;
}

/** Names that always mean this host, whatever a resolver would say. */
export function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}
