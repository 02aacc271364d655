import type { IncomingMessage } from 'node:http';
import { guardedRequest, UrlNotAllowedError, UrlNotReachableError } from '../core/http/guarded-fetch';
import { spool, SpooledFile } from './spool';
import { FileTooLargeError } from './user-files.errors';

export { isPublicAddress, UrlNotAllowedError, UrlNotReachableError } from '../core/http/guarded-fetch';

/** Redirects followed before giving up (a loop ends here too). */
export const MAX_REDIRECTS = 5;

export interface FetchOptions {
  limitBytes: number;
  timeoutMs: number;
  allowPrivateAddresses: boolean;
  tmpDir: string;
}

/**
 * Downloads `url` into a temporary file (Baserow's `upload_user_file_by_url`) through the
 * guarded fetcher (addresses checked and pinned on every hop); the body stops at the size
 * limit, the whole exchange at the timeout.
 */
export async function fetchToSpool(url: string, options: FetchOptions): Promise<{ file: SpooledFile; response: IncomingMessage }> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs);
  try {
    const { response } = await guardedRequest(url, { signal: abort.signal, allowPrivateAddresses: options.allowPrivateAddresses, maxRedirects: MAX_REDIRECTS });
    const status = response.statusCode ?? 0;
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
  } catch (error) {
    if (error instanceof FileTooLargeError || error instanceof UrlNotAllowedError || error instanceof UrlNotReachableError) throw error;
    throw new UrlNotReachableError((error as Error).message);
  } finally {
    clearTimeout(timer);
  }
}
