import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** One entry of EGRESS_ALLOW: a host name, or an address range (a single address is a /32 or /128), each with an optional port. */
type AllowEntry = { kind: 'host'; host: string; port?: number } | { kind: 'range'; range: [Address, number]; port?: number };

/** An EGRESS_ALLOW entry that is neither a host, an address nor a CIDR range (with an optional port). */
export class AllowListError extends Error {}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,62}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}[a-z0-9_])?)*\.?$/i;

/**
 * The address as one kind: an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is the IPv4 address it maps. An IPv6
 * address is read in its hexadecimal form first: ipaddr.js takes the IPv4-compatible `::8.8.8.8` for the mapped
 * `::ffff:8.8.8.8`, which it is not (the socket would go to ::808:808).
 */
function canonical(address: string): Address {
  const parsed = ipaddr.parse(hexadecimal(address));
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
}

/**
 * An IPv6 address as the URL standard writes it (`::8.8.8.8` is `::808:808`); any other address, or one with no such
 * form (a zone), as it is.
 */
function hexadecimal(address: string): string {
  if (isIP(address) !== 6) return address;
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

/** A CIDR range as one kind: `::ffff:10.0.0.0/104` is `10.0.0.0/8`. */
function canonicalRange([address, bits]: [Address, number]): [Address, number] {
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
  return [address, bits];
}

const portOf = (text: string, entry: string): number => {
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65535) throw new AllowListError(`EGRESS_ALLOW: "${entry}" has no valid port after its last ":"`);
  return port;
};

function parseEntry(entry: string): AllowEntry {
  if (entry.includes('/')) {
    const [address = '', bits] = entry.split('/');
    if (!isIP(address) || !ipaddr.isValidCIDR(entry)) throw new AllowListError(`EGRESS_ALLOW: "${entry}" is not a CIDR range (e.g. 10.20.0.0/16 or fd00::/8)`);
    return { kind: 'range', range: canonicalRange(ipaddr.parseCIDR(`${hexadecimal(address)}/${bits}`)) };
  }
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(entry);
  if (bracketed) {
    const [, address = '', port] = bracketed;
    if (isIP(address) !== 6) throw new AllowListError(`EGRESS_ALLOW: "${entry}" is not an IPv6 address in brackets`);
    return single(address, port === undefined ? undefined : portOf(port, entry));
  }
  if (isIP(entry)) return single(entry, undefined);
  const colon = entry.lastIndexOf(':');
  const host = colon < 0 ? entry : entry.slice(0, colon);
  const port = colon < 0 ? undefined : portOf(entry.slice(colon + 1), entry);
  if (isIP(host) === 4) return single(host, port);
  // A name ending in a number is an IPv4 address to URL parsers and resolvers: `300.1.1.1` is a typo, never a host name.
  if (/^(?:[0-9]+|0x[0-9a-f]*)$/i.test(host.replace(/\.$/, '').split('.').pop() ?? '')) throw new AllowListError(`EGRESS_ALLOW: "${entry}" is not a valid IPv4 address (four numbers from 0 to 255)`);
  if (!HOST_NAME.test(host)) throw new AllowListError(`EGRESS_ALLOW: "${entry}" is not a host name, an address or a CIDR range`);
  return { kind: 'host', host: host.toLowerCase().replace(/\.$/, ''), ...(port === undefined ? {} : { port }) };
}

function single(address: string, port: number | undefined): AllowEntry {
  const parsed = canonical(address);
  return { kind: 'range', range: [parsed, parsed.kind() === 'ipv4' ? 32 : 128], ...(port === undefined ? {} : { port }) };
}

/** EGRESS_ALLOW's entries: comma-separated, blanks ignored; a bad entry throws AllowListError naming it. */
export function parseAllowList(text: string): AllowEntry[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map(parseEntry);
}

/** Public unicast addresses that serve a cloud host's own endpoints to the machines on it. */
const CLOUD_HOST_ENDPOINTS: ReadonlySet<string> = new Set(['168.63.129.16']);

/**
 * The range an address belongs to when it is one the policy refuses by default (`loopback`, `private`, `linkLocal`,
 * `carrierGradeNat`, `multicast`, `unspecified`, `broadcast`, `reserved`, `uniqueLocal`, the IPv6 translation
 * ranges, `ipv4Compatible` for ::/96...), or null for a public unicast address. IPv4-mapped IPv6 addresses are judged
 * as the IPv4 they map.
 */
export function refusedRange(address: string): string | null {
  const parsed = canonical(address);
  // A cloud's host endpoint on a public unicast address (Azure's WireServer and guest agent at 168.63.129.16): refused
  // as the link-local metadata addresses are, unless EGRESS_ALLOW names it.
  if (parsed.kind() === 'ipv4' && CLOUD_HOST_ENDPOINTS.has(parsed.toString())) return 'cloudHostEndpoint';
  const range = parsed.range();
  // `::a.b.c.d` (::/96 but :: and ::1): the IPv4-compatible addresses RFC 4291 deprecated; ipaddr.js calls them unicast.
  if (range === 'unicast' && parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) return 'ipv4Compatible';
  return range === 'unicast' ? null : range;
}

/**
 * Where outbound requests may go: any public unicast address; any other address only when EGRESS_ALLOW names the
 * host the URL gave, or a range holding the address (with the port when the entry has one).
 */
export class AddressPolicy {
  private readonly entries: readonly AllowEntry[];

  constructor(allow: string) {
    this.entries = parseAllowList(allow);
  }

  /** Null when `host` (as the URL gave it), on `port`, may be reached at `address`; else the refused address and its range. */
  refusal(host: string, port: number, address: string): string | null {
    const range = refusedRange(address);
    if (range === null || this.allows(host, port, address)) return null;
    return `${address} (${range})`;
  }

  private allows(host: string, port: number, address: string): boolean {
    const name = host.toLowerCase().replace(/\.$/, '');
    const canonicalAddress = canonical(address);
    return this.entries.some((entry) => {
      if (entry.port !== undefined && entry.port !== port) return false;
      if (entry.kind === 'host') return entry.host === name;
      return entry.range[0].kind() === canonicalAddress.kind() && canonicalAddress.match(entry.range);
    });
  }
}
