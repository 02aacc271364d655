import type { IncomingMessage } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../core/config/config';
import { guardedRequest, headerLines, readCapped, UrlNotAllowedError } from '../core/http/guarded-fetch';

/** Redirects a call follows (Python requests' default, as Baserow calls with it). */
const MAX_REDIRECTS = 30;

export interface WebhookRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  eventType: string;
  eventId: string;
  payload: unknown;
}

/** A call made: the request and answer as text (Baserow's call log format), and whether it went well. */
export interface CallResult {
  request: string;
  response: string;
  status: number | null;
  /** `""` after an HTTP exchange, the reason otherwise. */
  error: string;
  ok: boolean;
  /** No exchange happened (refused address, connection failure, timeout). */
  unreachable: boolean;
}

/**
 * Makes one webhook call through the guarded fetcher: the JSON body (for every method, as
 * Baserow sends it), the webhook's headers then Baserow's own, the whole exchange within the
 * request timeout, the answer read up to a bound. A success is a final status below 400.
 */
@Injectable()
export class WebhookCaller {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async call(call: WebhookRequest): Promise<CallResult> {
    const body = JSON.stringify(call.payload);
    const headers = { ...call.headers, 'Content-type': 'application/json', 'X-Baserow-Event': call.eventType, 'X-Baserow-Delivery': call.eventId };
    const settings = this.config.webhooks;
    const signal = AbortSignal.timeout(settings.requestTimeoutMs);
    // As it would go: a call that never got an answer logs it too (one that was refused does not).
    let request = formatRequest(call.method.toUpperCase(), call.url, headerLines({ 'user-agent': 'Rowspace', accept: '*/*', ...headers }), call.payload);
    try {
      const { response, sent } = await guardedRequest(call.url, { method: call.method, headers, body, signal, allowPrivateAddresses: settings.allowPrivateAddress, maxRedirects: MAX_REDIRECTS });
      request = formatRequest(sent.method, sent.url, headerLines(sent.headers), call.payload);
      const { body: answer } = await readCapped(response, settings.responseMaxBytes);
      const status = response.statusCode ?? 0;
      return { request, response: formatResponse(response, answer.toString('utf8')), status, error: '', ok: status < 400, unreachable: false };
    } catch (error) {
      if (error instanceof UrlNotAllowedError) return { request: '', response: '', status: null, error: `UnacceptableAddressException: ${error.message}`, ok: false, unreachable: true };
      return { request, response: '', status: null, error: describe(error), ok: false, unreachable: true };
    }
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.name === 'TimeoutError' || error.name === 'AbortError' ? 'The request timed out.' : `${error.name}: ${error.message}`;
  return String(error);
}

/** `METHOD URL`, the headers sent, a blank line, then the JSON body indented by four (Baserow's `format_request`). */
function formatRequest(method: string, url: string, headers: string[], payload: unknown): string {
  return `${method} ${url}\r\n${headers.join('\r\n')}\r\n\r\n${JSON.stringify(payload, null, 4)}`;
}

/** The headers as received, a blank line, then the body (indented by four when it is JSON). */
function formatResponse(response: IncomingMessage, body: string): string {
  const lines: string[] = [];
  for (let i = 0; i + 1 < response.rawHeaders.length; i += 2) lines.push(`${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}`);
  let shown = body;
  try {
    shown = JSON.stringify(JSON.parse(body), null, 4);
  } catch {
    // Not JSON: as it came.
  }
  return `${lines.join('\r\n')}\r\n\r\n${shown}`;
}
