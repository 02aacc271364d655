import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail the loopback server took: envelope, raw message, its Subject and its body (quoted-printable decoded). */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  text: string;
}

/** A loopback SMTP server (the smtp-server package) without STARTTLS: what the mail tests send to. */
export interface LoopbackSmtp {
  port: number;
  received: ReceivedMail[];
  /** Recipients it refuses with a 450 (a mail server that is down for them). */
  refused: Set<string>;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<LoopbackSmtp> {
  const received: ReceivedMail[] = [];
  const refused = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, callback) {
      callback(refused.has(address.address) ? Object.assign(new Error('Mailbox unavailable'), { responseCode: 450 }) : undefined);
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw, ...parse(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The headers' Subject and the body, quoted-printable decoded. */
function parse(raw: string): { subject: string; text: string } {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  let text = rest.join('\n\n');
  if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) {
    text = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return { subject: /^Subject: (.*)$/im.exec(head)?.[1] ?? '', text: text.replace(/\r\n/g, '\n') };
}
