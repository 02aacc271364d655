import { types } from 'node:util';
import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';
import type { AppConfig } from '../config/config';

/** How createApp may override the configured logging (tests capture the lines in a stream). */
export interface LogOptions {
  /** Where JSON lines go instead of stdout. */
  stream?: NodeJS.WritableStream;
  /** A level instead of LOG_LEVEL. */
  level?: string;
}

/**
 * The app's pino logger: JSON lines on stdout (or `options.stream`), or pino-pretty's
 * coloured lines for a terminal. Keys that can hold secrets are censored wherever a caller
 * puts them, as a second line of defence: nothing should log them in the first place.
 */
export function createLogger(config: Pick<AppConfig, 'logLevel' | 'logFormat'>, options: LogOptions = {}): Logger {
  const settings: pino.LoggerOptions = {
    level: options.level ?? config.logLevel,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['password', 'token', 'authorization', '*.password', '*.token', '*.authorization', '*.headers.authorization'], censor: '[redacted]' },
  };
  if (options.stream) return pino(settings, options.stream);
  if (config.logFormat === 'pretty') {
    // One line per entry; a request's method, route, status and duration are already in its message.
    const pretty = require('pino-pretty') as typeof import('pino-pretty');
    const terminal = pretty({
      colorize: true,
      sync: true,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss.l',
      messageFormat: '{if context}[{context}] {end}{msg}',
      ignore: 'pid,hostname,context,method,route,status,durationMs',
    });
    return pino(settings, terminal);
  }
  return pino(settings, pino.destination({ dest: 1, sync: false }));
}

/** Nest's framework contexts whose start-up lines (one per module and route) are debug detail. */
const CHATTY_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'WebSocketsController']);

/** Nest's Logger (and every `new Logger(context)`) written through pino. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = contextOf(params);
    this.write(context && CHATTY_CONTEXTS.has(context) ? 'debug' : 'info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    // Nest passes (message, stack?, context?); a stack is told apart by its "at" lines.
    const stack = params.find((param) => typeof param === 'string' && /\n\s+at /.test(param));
    const context = contextOf(params.filter((param) => param !== stack));
    // An Error's own properties (a query and its parameters, for database errors) are not logged.
    if (types.isNativeError(message)) this.logger.error({ context, stack: message.stack }, message.message);
    else this.logger.error({ context, ...(stack ? { stack } : {}) }, String(message));
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: pino.Level, message: unknown, params: unknown[]): void {
    const context = contextOf(params);
    if (typeof message === 'object' && message !== null && !types.isNativeError(message)) this.logger[level]({ context, ...message });
    else this.logger[level]({ context }, String(message));
  }
}

/** Nest passes the logger's context as the last string argument. */
function contextOf(params: unknown[]): string | undefined {
  const last = params[params.length - 1];
  return typeof last === 'string' ? last : undefined;
}
