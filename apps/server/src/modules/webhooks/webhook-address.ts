import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may go (server-side request forgery): only public unicast addresses. Every spelling of an
 * address is read the way the HTTP client will read it: the WHATWG URL parser turns decimal, octal and hexadecimal
 * IPv4 forms into dotted quads, and ipaddr.js turns IPv4-mapped IPv6 addresses into the IPv4 address they carry,
 * before the range is looked up. Names are checked after DNS resolution, by the lookup of the delivery's own
 * connection: the address checked is the address connected to (no second resolution in between).
 */
export interface AddressPolicy {
  /** Plain http and the loopback range (WEBHOOK_ALLOW_LOOPBACK, for tests and local development). */
  allowLoopback: boolean;
}

export type Refusal =
  | 'notUrl'
  | 'scheme'
  | 'credentials'
  | 'loopback'
  | 'private'
  | 'linkLocal'
  | 'sharedAddressSpace'
  | 'unspecified'
  | 'reserved'
  | 'unresolvable';

export class AddressRefused extends Error {
  constructor(
    readonly reason: Refusal,
    readonly host: string,
  ) {
    super(`webhook address refused (${reason}): ${host}`);
  }
}

const REASON_BY_RANGE: Record<string, Refusal> = {
  loopback: 'loopback',
  private: 'private',
  uniqueLocal: 'private',
  linkLocal: 'linkLocal',
  carrierGradeNat: 'sharedAddressSpace',
  unspecified: 'unspecified',
};

/** Why an IP address may not be called, or undefined when it may. */
export function refusedAddress(address: string, policy: AddressPolicy): Refusal | undefined {
  if (!ipaddr.isValid(address)) return 'notUrl';
  // ::ffff:127.0.0.1 is 127.0.0.1.
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && policy.allowLoopback) return undefined;
  return REASON_BY_RANGE[range] ?? 'reserved';
}

/** A bracketed IPv6 host as the URL parser gives it, without its brackets. */
const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/**
 * Checks a URL as given at registration: https (http only on an allowed loopback address), no credentials, and a
 * host that is not a refused address in any spelling, nor a name of the local machine. Answers the normalized URL.
 */
export function checkWebhookUrl(raw: string, policy: AddressPolicy): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AddressRefused('notUrl', raw.slice(0, 100));
  }
  const host = bare(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowLoopback))
    throw new AddressRefused('scheme', url.protocol);
  if (url.username || url.password) throw new AddressRefused('credentials', host);
  if (ipaddr.isValid(host)) {
    const refused = refusedAddress(host, policy);
    if (refused) throw new AddressRefused(refused, host);
    if (url.protocol === 'http:' && ipaddr.process(host).range() !== 'loopback')
      throw new AddressRefused('scheme', 'http:');
  } else {
    const name = host.toLowerCase().replace(/\.$/, '');
    if (!policy.allowLoopback && (name === 'localhost' || name.endsWith('.localhost')))
      throw new AddressRefused('loopback', host);
    // Plain http goes to the loopback address only, never to a name that may resolve elsewhere.
    if (url.protocol === 'http:' && name !== 'localhost') throw new AddressRefused('scheme', 'http:');
  }
  url.hash = '';
  return url.toString();
}

/**
 * The lookup of a delivery's connection: resolves the name, refuses it when any of its addresses is refused, and
 * connects to the address it checked. (A literal address skips lookups; the caller checks it first.)
 */
export function pinnedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const list = addresses;
      if (!list.length) return callback(new AddressRefused('unresolvable', hostname), '', 4);
      for (const a of list) {
        const refused = refusedAddress(a.address, policy);
        if (refused) return callback(new AddressRefused(refused, `${hostname} (${a.address})`), '', 4);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
