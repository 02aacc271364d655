import { lookup as dnsLookup } from 'node:dns/promises';
import http, { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The one guarded fetcher for every request the server makes to a URL a user gave (a file
 * uploaded by URL, a webhook call): http(s) only, no credentials in the URL, every hop's host
 * resolved and each of its addresses checked (only global unicast ones unless private addresses
 * are allowed), the connection made to the checked address (a second DNS answer cannot slip a
 * private one in), a bounded number of redirects each checked again, and the whole exchange
 * bounded in time. Reading the body, and bounding its size, is the caller's.
 */

export class UrlNotReachableError extends Error {}
export class UrlNotAllowedError extends Error {}

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

/** Why a URL may not be requested at all (before any DNS lookup), or null. */
export function urlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Enter a valid URL.';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'Only http and https URLs are allowed.';
  if (parsed.username || parsed.password) return 'Credentials in the URL are not allowed.';
  if (!parsed.hostname) return 'Enter a valid URL.';
  return null;
}

export interface GuardedRequest {
  method?: string;
  headers?: OutgoingHttpHeaders;
  body?: string | Buffer;
  /** Bounds the whole exchange, redirects included (the caller reading the body stays under it). */
  signal: AbortSignal;
  allowPrivateAddresses: boolean;
  maxRedirects: number;
}

export interface GuardedResponse {
  response: IncomingMessage;
  /** The first request of the chain as it was sent (a redirected call logs its first request). */
  sent: { method: string; url: string; headers: OutgoingHttpHeaders };
}

/**
 * Sends a request and follows redirects as browsers and Python's requests do: a 303 (and a 301
 * or 302 of a POST) goes on as a GET without a body, a 307 or 308 keeps the method and body.
 * Answers the last response, whatever its status; the caller reads or drops its body.
 */
export async function guardedRequest(url: string, options: GuardedRequest): Promise<GuardedResponse> {
  let current = url;
  let method = (options.method ?? 'GET').toUpperCase();
  let body = options.body;
  let sent: GuardedResponse['sent'] | null = null;
  for (let hop = 0; hop <= options.maxRedirects; hop++) {
    const problem = urlProblem(current);
    if (problem) throw new UrlNotAllowedError(problem);
    const target = new URL(current);
    const address = await checkedAddress(target.hostname, options.allowPrivateAddresses);
    const headers: OutgoingHttpHeaders = { 'user-agent': 'Rowspace', accept: '*/*', ...options.headers };
    if (body !== undefined) headers['content-length'] = Buffer.byteLength(body);
    else delete headers['content-length'];
    sent ??= { method, url: current, headers };
    const response = await send(target, method, headers, body, address, options.signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.resume();
      current = new URL(location, target).toString();
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        method = method === 'HEAD' ? 'HEAD' : 'GET';
        body = undefined;
      }
      continue;
    }
    return { response, sent };
  }
  throw new UrlNotReachableError('Too many redirects.');
}

/** The address a host name is connected to: its first, once every one it resolves to is allowed. */
export async function checkedAddress(hostname: string, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await dnsLookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new UrlNotReachableError('The host has no address.');
  if (!allowPrivate && addresses.some((entry) => !isPublicAddress(entry.address))) {
    throw new UrlNotAllowedError(`${hostname} resolves to an address that is not public.`);
  }
  return addresses[0];
}

function send(url: URL, method: string, headers: OutgoingHttpHeaders, body: string | Buffer | undefined, pinned: { address: string; family: number }, signal: AbortSignal): Promise<IncomingMessage> {
  // The connection goes to the address that was checked, whatever DNS answers now.
  const lookup: LookupFunction = (_hostname, opts, callback) => {
    const cb = callback as (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void;
    if ((opts as { all?: boolean }).all) cb(null, [pinned]);
    else cb(null, pinned.address, pinned.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, { method, lookup, signal, headers, agent: false }, resolve);
    request.on('error', reject);
    request.end(body);
  });
}

/** Reads a response's body up to `limitBytes`: what came, and whether more was cut off (the rest is not read). */
export async function readCapped(response: IncomingMessage, limitBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    const room = limitBytes - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      response.destroy();
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

/** Header lines as they travelled (`Name: value`), for call logs. */
export function headerLines(headers: IncomingHttpHeaders | OutgoingHttpHeaders): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${one}`);
  }
  return lines;
}
