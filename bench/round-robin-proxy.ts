/**
 * A small round-robin proxy for bench/instances.ts (run as a child process: `ts-node --swc
 * bench/round-robin-proxy.ts <url> <url> …`). Every HTTP request goes to the next target in turn
 * (keep-alive connections to each); every WebSocket upgrade goes to the next target too and is
 * then piped both ways, so the sockets of one client spread over the instances. It listens on a
 * free port of 127.0.0.1 and sends `{url}` to its parent. `GET /__proxy__/stats` answers how many
 * requests and sockets went to each target.
 */
import { Agent, IncomingHttpHeaders, createServer, request } from 'node:http';
import { connect } from 'node:net';

const targets = process.argv.slice(2).map((url) => new URL(url));
if (!targets.length) throw new Error('usage: round-robin-proxy.ts <target url>…');
const agents = targets.map(() => new Agent({ keepAlive: true, maxSockets: 512, timeout: 4000 }));
const requests = targets.map(() => 0);
const sockets = targets.map(() => 0);
let nextRequest = 0;
let nextSocket = 0;

/** The headers without the hop-by-hop ones (each side keeps its own connection). */
function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out = { ...headers };
  delete out.connection;
  delete out['keep-alive'];
  return out;
}

const server = createServer((req, res) => {
  if (req.url === '/__proxy__/stats') {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ targets: targets.map(String), requests, sockets }));
    return;
  }
  const i = nextRequest++ % targets.length;
  requests[i] += 1;
  const upstream = request(
    { host: targets[i].hostname, port: targets[i].port, method: req.method, path: req.url, headers: endToEnd(req.headers), agent: agents[i] },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
      answer.pipe(res);
    },
  );
  upstream.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
    res.end(`proxy: ${error.message}`);
  });
  req.pipe(upstream);
});

server.on('upgrade', (req, client, head: Buffer) => {
  const i = nextSocket++ % targets.length;
  sockets[i] += 1;
  const upstream = connect(Number(targets[i].port), targets[i].hostname, () => {
    let request = `${req.method} ${req.url} HTTP/${req.httpVersion}\r\n`;
    for (let k = 0; k < req.rawHeaders.length; k += 2) request += `${req.rawHeaders[k]}: ${req.rawHeaders[k + 1]}\r\n`;
    upstream.write(`${request}\r\n`);
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.setNoDelay(true);
  const close = () => {
    upstream.destroy();
    client.destroy();
  };
  upstream.on('error', close);
  client.on('error', close);
  upstream.on('close', close);
  client.on('close', close);
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.send?.({ url: `http://127.0.0.1:${address.port}` });
});
process.on('SIGTERM', () => process.exit(0));
