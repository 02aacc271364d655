import type { Server } from 'node:http';
import type { INestApplication, LoggerService } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { InFlight } from './in-flight';

/** Time left to close sockets, the database and Redis once the work is done (or cut short). */
const CLOSE_GRACE_MS = 10_000;

/**
 * Stops the instance without losing acknowledged work: no new connections, 503 for new
 * requests on open ones, then waits (up to SHUTDOWN_TIMEOUT_SECONDS) for in-flight requests
 * and jobs, whose after-commit events are dispatched within them. Then `app.close()` closes
 * the sockets with 1012 (the realtime gateway), the database and Redis.
 * Answers the exit code: 0, or 1 when the deadline cut work short.
 */
export async function shutDownGracefully(app: INestApplication, config: AppConfig, logger: LoggerService): Promise<number> {
  const inFlight = app.get(InFlight);
  inFlight.draining = true;
  const server = app.getHttpServer() as Server;
  server.close();
  server.closeIdleConnections();
  const finished = await within(inFlight.idle(), config.shutdownTimeoutSeconds * 1000);
  if (!finished) logger.warn?.(`Closing with ${inFlight.size} unfinished request(s) or job(s) after ${config.shutdownTimeoutSeconds}s.`, 'Shutdown');
  // Only idle kept-alive connections are left (upgraded WebSockets are not HTTP connections any more).
  server.closeAllConnections();
  const closed = await within(app.close(), CLOSE_GRACE_MS);
  if (!closed) logger.warn?.(`Closing the database, Redis or sockets took longer than ${CLOSE_GRACE_MS / 1000}s.`, 'Shutdown');
  return finished && closed ? 0 : 1;
}

/** Whether `work` settled within `ms`. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
