// A real SMTP server on a free local port (the smtp-server package), for the tests of messages to
// renters: it keeps what it receives and refuses every recipient while `state.refusing`.

import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as received: headers, a blank line, the (quoted-printable) body. */
  raw: string;
}

export interface TestSmtpServer {
  received: ReceivedMail[];
  state: { refusing: boolean };
  port: number;
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const state = { refusing: false };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (state.refusing) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { received, state, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The text of a received message, its soft line breaks and quoted-printable undone. */
export function mailText(raw: string): string {
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4).replace(/=\r\n/g, '');
  // Quoted-printable escapes are the bytes of UTF-8 text: a run of them is decoded together.
  return body.replace(/(?:=[0-9A-F]{2})+/g, (run) => Buffer.from(run.replaceAll('=', ''), 'hex').toString('utf8')).replace(/\r\n/g, '\n');
}
