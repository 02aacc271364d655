import { ApiError } from '../core/errors/api-error';

/** Bounds of the requests made to a provider's URLs (set by staff, so internal addresses are allowed). */
export interface ProviderHttpLimits {
  timeoutMs: number;
  maxBytes: number;
}

export class ProviderHttpError extends Error {}

/**
 * A request to an identity provider's URL. Staff set these URLs (a company's IdP is often on an
 * internal address), so unlike user-given URLs (files/url-fetcher.ts) the address is not
 * checked; the time and the size of the answer are bounded, and redirects are not followed.
 */
export async function providerRequest(url: string, init: RequestInit, limits: ProviderHttpLimits): Promise<{ status: number; json: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(limits.timeoutMs) });
  } catch (error) {
    throw new ProviderHttpError(`${url}: ${(error as Error).message}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  try {
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limits.maxBytes) throw new ProviderHttpError(`${url}: the answer is larger than ${limits.maxBytes} bytes`);
      chunks.push(Buffer.from(value));
    }
  } catch (error) {
    await reader?.cancel().catch(() => undefined);
    throw error instanceof ProviderHttpError ? error : new ProviderHttpError(`${url}: ${(error as Error).message}`);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return { status: response.status, json: text ? JSON.parse(text) : null };
  } catch {
    throw new ProviderHttpError(`${url}: the answer is not JSON (${response.status})`);
  }
}

/** Baserow's `ERROR_INVALID_PROVIDER_URL`. */
export const invalidProviderUrl = () =>
  new ApiError('ERROR_INVALID_PROVIDER_URL', 400, "The specified URL doesn't point to a valid provider of the provider type.");
