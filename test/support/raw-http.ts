import { connect } from 'node:net';

export interface RawAnswer {
  /** The status of the answer, or null when the connection broke before one arrived. */
  status: number | null;
  headers: Record<string, string>;
  body: string;
  /** The socket error the client met (EPIPE, ECONNRESET...), if any. */
  error: string | null;
}

/**
 * Sends one request over a plain TCP socket the way simple clients do: the whole body first
 * (as fast as the server takes it), then reads the answer. A server that answers and closes
 * without reading the body makes this client meet EPIPE/ECONNRESET instead of the answer.
 */
export function rawRequest(base: string, method: string, path: string, headers: Record<string, string>, body: Buffer): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    let error: string | null = null;
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
    });
    socket.on('close', () => resolve({ ...parse(Buffer.concat(received).toString('latin1')), error }));
    socket.on('connect', async () => {
      const head = [`${method} ${path} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close', `Content-Length: ${body.length}`];
      for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
      socket.write(`${head.join('\r\n')}\r\n\r\n`);
      const step = 64 * 1024;
      for (let offset = 0; offset < body.length && !socket.destroyed; offset += step) {
        if (!socket.write(body.subarray(offset, offset + step))) {
          await new Promise<void>((next) => {
            const go = (): void => {
              socket.off('drain', go).off('close', go);
              next();
            };
            socket.on('drain', go).on('close', go);
          });
        }
      }
      if (!socket.destroyed) socket.end();
    });
  });
}

function parse(text: string): Omit<RawAnswer, 'error'> {
  const match = /^HTTP\/1\.1 (\d{3})[^\r\n]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(text);
  if (!match) return { status: null, headers: {}, body: text };
  const headers: Record<string, string> = {};
  for (const line of match[2].split('\r\n')) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return { status: Number(match[1]), headers, body: match[3] };
}
