import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}
export interface StoredMail extends Mail {
  id: string;
  from: string;
  date: string;
}

export interface Mailer {
  /** `log`: the sender's (a request's or a job's), so a line about the mail carries their id. */
  send(mail: Mail, log?: FastifyBaseLogger): Promise<void>;
  close(): Promise<void>;
  /**
   * Whether the last mail this process tried could not be sent (the mail server is away): an answer that must
   * not say whether an address has an account can still say that mail is not going out now.
   */
  readonly failing?: boolean;
}

/**
 * How long a dead SMTP server may hold a mail before it counts as failed (nodemailer's defaults are 2 minutes to
 * connect, 30 s for the greeting and 10 minutes of silence): a sign-up answers `mail_sent: false` in seconds, not
 * minutes. SMTP_URL's query sets any of them otherwise (?socketTimeout=60000).
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** SMTP through nodemailer when SMTP_URL is set (smtp://[user:pass@]host:port). */
class SmtpMailer implements Mailer {
  private readonly transport;
  constructor(
    url: string,
    private readonly from: string,
  ) {
    // A pool reuses connections instead of one SMTP handshake per mail.
    this.transport = nodemailer.createTransport({
      ...SMTP_TIMEOUTS,
      url: `${url}${url.includes('?') ? '&' : '?'}pool=true`,
    });
  }
  async send(mail: Mail) {
    await this.transport.sendMail({ from: this.from, ...mail });
  }
  async close() {
    this.transport.close();
  }
}

/**
 * The dev outbox: every mail is stored under DATA_DIR/outbox and listed at /dev/mail. With `printText` (outside
 * production) its text is printed in the log too, so a newcomer reads sign-up codes there; in production the log
 * says only that a mail was stored, to whom and about what: never a code.
 */
export class OutboxMailer implements Mailer {
  readonly dir: string;
  constructor(
    dataDir: string,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
    private readonly printText: boolean,
  ) {
    this.dir = path.join(dataDir, 'outbox');
  }
  async send(mail: Mail, log: FastifyBaseLogger = this.log) {
    await fs.mkdir(this.dir, { recursive: true });
    const date = new Date().toISOString();
    const id = `${date.replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`;
    const stored: StoredMail = { id, from: this.from, date, ...mail };
    // Written aside and renamed into place: a reader listing the outbox (/dev/mail, a test polling it) never finds
    // a mail half written, which it could not parse.
    const file = path.join(this.dir, `${id}.json`);
    await fs.writeFile(`${file}.tmp`, JSON.stringify(stored, null, 2));
    await fs.rename(`${file}.tmp`, file);
    if (this.printText)
      log.info({ mailTo: mail.to, subject: mail.subject }, `dev outbox mail:\n${mail.text}`);
    else
      log.info({ mailTo: mail.to, subject: mail.subject }, 'mail stored in the outbox (SMTP_URL is not set)');
  }
  async list(): Promise<StoredMail[]> {
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    const mails = await Promise.all(
      names
        .filter((n) => n.endsWith('.json'))
        .map(async (n) => JSON.parse(await fs.readFile(path.join(this.dir, n), 'utf8')) as StoredMail),
    );
    return mails.sort((a, b) => b.id.localeCompare(a.id));
  }
  async close() {}
}

/**
 * What a log line may say about a failed send: the failure's kind (ECONNECTION, ETIMEDOUT, EENVELOPE…) and the
 * SMTP reply code, never the server's reply text, which can quote the recipient's address.
 */
export function mailFailure(err: unknown): { code: string; responseCode?: number } {
  const e = (err ?? {}) as { code?: unknown; responseCode?: unknown };
  return {
    code: typeof e.code === 'string' ? e.code : 'EUNKNOWN',
    ...(typeof e.responseCode === 'number' ? { responseCode: e.responseCode } : {}),
  };
}

/**
 * A failure worth trying again later: the SMTP server could not be reached or answered 4xx. A 5xx answer is
 * a refusal of this mail that repeating does not change.
 */
export function isTransientMailFailure(err: unknown): boolean {
  const { responseCode } = mailFailure(err);
  return responseCode === undefined || responseCode < 500;
}

/**
 * Sends a mail whose failure the caller reports to the person rather than as an error: false when it could not
 * be sent, after one warning naming the failure (never the address or the text).
 */
export async function trySend(
  mailer: Mailer,
  mail: Mail,
  log: FastifyBaseLogger,
  what: string,
): Promise<boolean> {
  try {
    await mailer.send(mail, log);
    return true;
  } catch (err) {
    log.warn({ mailFailure: mailFailure(err) }, `${what}: the mail could not be sent`);
    return false;
  }
}

/**
 * The mailer for this configuration, which knows whether its last send failed. With `counted`, each send is told
 * as sent or failed (the metrics); the mailer object stays the same class, so the dev outbox is still recognised
 * as one.
 */
export function createMailer(
  config: Config,
  log: FastifyBaseLogger,
  counted?: (ok: boolean) => void,
): Mailer {
  const mailer = config.smtpUrl
    ? new SmtpMailer(config.smtpUrl, config.mailFrom)
    : new OutboxMailer(config.dataDir, config.mailFrom, log, !config.production);
  const send = mailer.send.bind(mailer);
  const told: Mailer & { failing: boolean } = Object.assign(mailer, { failing: false });
  told.send = (mail, sendLog) =>
    send(mail, sendLog).then(
      () => {
        told.failing = false;
        counted?.(true);
      },
      (err) => {
        told.failing = true;
        counted?.(false);
        throw err;
      },
    );
  return told;
}
