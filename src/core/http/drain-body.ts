import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long a refused request's body is read (and thrown away) before the answer goes anyway, on a closing connection. */
const DRAIN_LIMIT_MS = 30_000;

/**
 * Sends `answer` once the rest of the request body has arrived (and been thrown away). A
 * request refused before its body was read (an upload without credentials or as JSON, a file
 * too large, an unknown URL) would otherwise be answered on a connection closed with unread
 * bytes in it: the kernel resets it, and a client still writing the body meets EPIPE or
 * ECONNRESET instead of the answer. A body still coming after DRAIN_LIMIT_MS is given up on.
 */
export function answerAfterBody(req: IncomingMessage, res: ServerResponse, answer: () => void): void {
  if (req.complete || req.readableEnded || req.destroyed) return answer();
  let done = false;
  const finish = (timedOut: boolean): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    req.off('end', onEnd).off('close', onEnd).off('error', onEnd);
    if (timedOut) res.setHeader('Connection', 'close');
    answer();
  };
  const onEnd = (): void => finish(false);
  const timer = setTimeout(() => finish(true), DRAIN_LIMIT_MS).unref();
  req.on('end', onEnd).on('close', onEnd).on('error', onEnd);
  // Whoever was reading it stopped (a refused upload): the rest is read without a listener, i.e. dropped.
  req.unpipe();
  req.removeAllListeners('data');
  req.resume();
}
