import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

// A real SMTP server for the tests: it accepts every mail the app sends and keeps it, decoded, in memory.

export interface CaughtMail {
  /** Envelope recipients, lower-cased. */
  to: string[];
  from: string;
  subject: string;
  /** The body as plain text, transfer encoding undone. */
  text: string;
  headers: Record<string, string>;
  raw: string;
}

export interface WaitOptions {
  /** Wait until at least this many mails to the address have arrived (default 1); the latest is returned. */
  count?: number;
  subject?: string | RegExp;
  timeoutMs?: number;
}

export interface SmtpSink {
  port: number;
  readonly mails: readonly CaughtMail[];
  /** Holds every DATA reply this long: shows whether a request waits for its mail. */
  delayMs: number;
  to(address: string, subject?: string | RegExp): CaughtMail[];
  waitFor(address: string, options?: WaitOptions): Promise<CaughtMail>;
  close(): Promise<void>;
}

/** Undoes quoted-printable: soft line breaks and =XX bytes (UTF-8). */
export function decodeQuotedPrintable(input: string): string {
  const softBreaksGone = input.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < softBreaksGone.length; i++) {
    const hex = softBreaksGone.slice(i + 1, i + 3);
    if (softBreaksGone[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(softBreaksGone[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Undoes RFC 2047 encoded words (=?utf-8?Q?…?= / =?utf-8?B?…?=) in a header value. */
export function decodeHeaderValue(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

/** Enough MIME for the app's single-part text mails: unfolded headers and the decoded body. */
export function parseMail(raw: string, envelopeTo: string[], envelopeFrom: string): CaughtMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return {
    to: envelopeTo.map((a) => a.toLowerCase()),
    from: envelopeFrom,
    subject: decodeHeaderValue(headers.subject ?? ''),
    text: text.replace(/\r\n/g, '\n'),
    headers,
    raw,
  };
}

const matches = (subject: string, wanted?: string | RegExp) =>
  wanted === undefined || (typeof wanted === 'string' ? subject === wanted : wanted.test(subject));

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: CaughtMail[] = [];
  const sink = {
    port: 0,
    mails,
    delayMs: 0,
    to(address: string, subject?: string | RegExp) {
      const a = address.toLowerCase();
      return mails.filter((m) => m.to.includes(a) && matches(m.subject, subject));
    },
    async waitFor(address: string, options: WaitOptions = {}) {
      const { count = 1, subject, timeoutMs = 10_000 } = options;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = sink.to(address, subject);
        if (found.length >= count) return found[found.length - 1] as CaughtMail;
        if (Date.now() > deadline) {
          const seen = mails.map((m) => `${m.to.join(',')}: ${m.subject}`).join('; ') || 'none';
          throw new Error(`No mail #${count} to ${address} within ${timeoutMs} ms (caught: ${seen})`);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: async () => {},
  };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    disableReverseLookup: true,
    closeTimeout: 200,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const deliver = () => {
          mails.push(
            parseMail(
              raw,
              session.envelope.rcptTo.map((r) => r.address),
              from,
            ),
          );
          callback();
        };
        if (sink.delayMs > 0) setTimeout(deliver, sink.delayMs);
        else deliver();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  sink.port = (server.server.address() as AddressInfo).port;
  sink.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return sink;
}
