import { lookup as dnsLookup } from 'node:dns/promises';
import http, { IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { spool, SpooledFile } from './spool';
import { FileTooLargeError } from './user-files.errors';

/** Redirects followed before giving up (a loop ends here too). */
export const MAX_REDIRECTS = 5;

export class UrlNotReachableError extends Error {}
export class UrlNotAllowedError extends Error {}

export interface FetchOptions {
  limitBytes: number;
  timeoutMs: number;
  allowPrivateAddresses: boolean;
  tmpDir: string;
}

/**
 * Whether an address may be fetched: only global unicast addresses, IPv4-mapped IPv6 judged as
 * its IPv4 address. Loopback, private, link-local, carrier-grade NAT, multicast, unspecified,
 * broadcast, reserved and the IPv6 translation ranges are refused.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === 'unicast';
}

/**
 * Downloads `url` into a temporary file (Baserow's `upload_user_file_by_url`, with its
 * server-side request forgery guard): every hop's host is resolved, each address checked,
 * and the connection made to the checked address (a second DNS answer cannot slip a private
 * address in). At most MAX_REDIRECTS redirects, each checked again; the body stops at the size
 * limit; the whole exchange at the timeout.
 */
export async function fetchToSpool(url: string, options: FetchOptions): Promise<{ file: SpooledFile; response: IncomingMessage }> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs);
  try {
    let current = new URL(url);
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (current.protocol !== 'http:' && current.protocol !== 'https:') throw new UrlNotReachableError('Redirected to a scheme other than http(s).');
      const address = await checkedAddress(current.hostname, options.allowPrivateAddresses);
      const response = await get(current, address, abort.signal);
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        current = new URL(response.headers.location, current);
        continue;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        throw new UrlNotReachableError(`Answered ${status}.`);
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.limitBytes) {
        response.destroy();
        throw new FileTooLargeError(options.limitBytes);
      }
      try {
        return { file: await spool(response, options.limitBytes, options.tmpDir), response };
      } catch (error) {
        response.destroy();
        throw error;
      }
    }
    throw new UrlNotReachableError('Too many redirects.');
  } catch (error) {
    if (error instanceof FileTooLargeError || error instanceof UrlNotAllowedError || error instanceof UrlNotReachableError) throw error;
    throw new UrlNotReachableError((error as Error).message);
  } finally {
    clearTimeout(timer);
  }
}

async function checkedAddress(hostname: string, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await dnsLookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new UrlNotReachableError('The host has no address.');
  if (!allowPrivate && addresses.some((entry) => !isPublicAddress(entry.address))) {
    throw new UrlNotAllowedError(`${hostname} resolves to an address that is not public.`);
  }
  return addresses[0];
}

function get(url: URL, pinned: { address: string; family: number }, signal: AbortSignal): Promise<IncomingMessage> {
  // The connection goes to the address that was checked, whatever DNS answers now.
  const lookup: LookupFunction = (_hostname, opts, callback) => {
    const cb = callback as (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void;
    if ((opts as { all?: boolean }).all) cb(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(url, { lookup, signal, headers: { 'user-agent': 'Rowspace', accept: '*/*' }, agent: false }, resolve);
    request.on('error', reject);
  });
}
