import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import {
  type DataExport,
  EXPORT_MSG,
  EXPORT_TTL_HOURS,
  exportPagePath,
  SECURITY_AUDIT,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import yazl from 'yazl';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { AvatarStore } from '../../platform/avatars';
import { ConflictError, HttpError, NotFoundError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import { jobLog } from '../../platform/job-log';
import type { Mailer } from '../../platform/mail';
import { PeriodicTask } from '../../platform/periodic';
import type { RateLimiter } from '../../platform/rate-limit';
import { enforceLimit } from '../../platform/rate-limit-policy';
import type { FileStorage } from '../../platform/storage';
import { TempFiles } from '../../platform/temp-files';
import { mailLocale, textsIn } from '../../platform/translations';
import type { AccountSettingsService } from '../accounts/account-settings.service';
import type { UsersService } from '../accounts/users.service';
import type { AttachmentsService } from '../attachments/attachments.service';
import type { AuditService } from '../audit/audit.service';
import type { ChatsService } from '../chats/chats.service';
import type { MessagesService } from '../messages/messages.service';
import * as repo from './data-export.repo';
import type { DataExportsTable } from './data-export.tables';

// "Export my data": a ZIP of the person's profile, settings, every chat's messages as they can see
// them, and the files they uploaded, prepared after the request, kept in the file store for 24 hours and mailed
// as a link. It asks each owner's service for what it holds; the only table here is data_exports.

interface Deps {
  config: Config;
  db: Db;
  storage: FileStorage;
  mailer: Mailer;
  limiter: RateLimiter;
  events: DomainEvents;
  audit: Pick<AuditService, 'record'>;
  accounts: Pick<AccountSettingsService, 'ownProfile' | 'settings'>;
  users: Pick<UsersService, 'avatarOf' | 'mailRecipient'>;
  avatars: Pick<AvatarStore, 'read'>;
  chats: Pick<ChatsService, 'listChats'>;
  messages: Pick<MessagesService, 'history'>;
  attachments: Pick<AttachmentsService, 'uploadedBy'>;
  log: FastifyBaseLogger;
  /** Where a ZIP is written before it goes to the file store (DATA_DIR/tmp/exports). */
  tempDir: string;
}

const HOUR = 3600_000;
/** Exports one person may ask for in a day: each reads everything they have. */
const EXPORTS_PER_DAY = 3;
const HISTORY_PAGE = 500;
const SWEEP_INTERVAL_MS = HOUR;
/** Files already compressed gain nothing from deflate; they are stored as they are. */
const STORED_AS_IS = /^(image|video|audio)\/|^application\/(pdf|zip)/;

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
/** A name safe inside the archive: no folders, no control characters. */
const entryName = (name: string) => name.replace(/[/\\\p{Cc}]/gu, '_').slice(0, 120) || 'file';

const README = `Your Parley data, as it was when this archive was made.

profile.json    your profile
settings.json   your account settings
chats.json      the chats you are in
chats/          each chat's messages you can see (from where you last cleared it), oldest first, as JSON
files/          the files you uploaded, named by their id
avatar.webp     your profile picture, if you have one
`;

const toView = (row: {
  public_id: string;
  status: DataExportsTable['status'];
  created_at: string;
  expires_at: string;
  size: number | null;
}): DataExport => ({
  id: row.public_id,
  status: row.status,
  created_at: row.created_at,
  expires_at: row.expires_at,
  size: row.size,
});

export class DataExportService {
  private readonly temp: TempFiles;
  private readonly building = new Set<Promise<void>>();
  private sweep: PeriodicTask | null = null;

  constructor(private readonly deps: Deps) {
    this.temp = new TempFiles(deps.tempDir);
    // A deleted account's exports go with it (the rows by cascade, the files here).
    deps.events.on('user.deleted', async ({ userId }) => {
      await this.removeFiles(await repo.storageKeysOf(deps.db, userId));
    });
  }

  /**
   * Starts preparing an export; the link is mailed when it is ready. `requestId`: the asking request's, which
   * the export's log lines carry.
   */
  async request(userId: number, requestId?: string): Promise<DataExport> {
    const { db, limiter, audit } = this.deps;
    await enforceLimit(limiter, `export:${userId}`, EXPORTS_PER_DAY, 24 * HOUR);
    const now = Date.now();
    const row = {
      public_id: randomBytes(16).toString('base64url'),
      user_id: userId,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + EXPORT_TTL_HOURS * HOUR).toISOString(),
    };
    await repo.insertExport(db, row);
    await audit.record({
      type: SECURITY_AUDIT.exportCreated,
      actor_id: userId,
      target_id: userId,
      detail: { export: row.public_id },
    });
    const job = this.build(userId, row.public_id, requestId).finally(() => this.building.delete(job));
    this.building.add(job);
    return toView({ ...row, status: 'preparing', size: null });
  }

  async list(userId: number): Promise<DataExport[]> {
    return (await repo.liveExportsOf(this.deps.db, userId, new Date().toISOString())).map(toView);
  }

  /** The ZIP of one of the person's own exports: 404 for anyone else's, 410 once expired, 409 until ready. */
  async open(userId: number, publicId: string): Promise<{ stream: Readable; size: number }> {
    const row = await repo.findExportOf(this.deps.db, userId, publicId);
    if (!row) throw new NotFoundError();
    if (row.expires_at <= new Date().toISOString()) throw new HttpError(410, { detail: EXPORT_MSG.expired });
    if (row.status === 'failed') throw new ConflictError(EXPORT_MSG.failed);
    if (row.status !== 'ready' || !row.storage_key) throw new ConflictError(EXPORT_MSG.notReady);
    const file = await this.deps.storage.get(row.storage_key);
    if (!file) throw new HttpError(410, { detail: EXPORT_MSG.expired });
    return { stream: file.stream, size: file.size };
  }

  /** Resolves once the exports under way are finished (tests, and a shutdown). */
  async settled(): Promise<void> {
    while (this.building.size > 0) await Promise.allSettled([...this.building]);
  }

  /** Deletes expired exports every hour (their files too). */
  startSweeping(log: FastifyBaseLogger): this {
    this.sweep ??= new PeriodicTask(() => this.sweepExpired(), SWEEP_INTERVAL_MS, log, 'data export sweep');
    this.sweep.start();
    return this;
  }

  async stop(): Promise<void> {
    await this.sweep?.stop();
    await this.settled();
  }

  async sweepExpired(): Promise<number> {
    const keys = await repo.deleteExpired(this.deps.db, new Date().toISOString());
    await this.removeFiles(keys);
    return keys.length;
  }

  private async removeFiles(keys: (string | null)[]): Promise<void> {
    for (const key of keys) {
      if (!key) continue;
      await this.deps.storage
        .delete(key)
        .catch((err) => this.deps.log.warn({ err }, 'could not remove an export file'));
    }
  }

  private async build(userId: number, publicId: string, requestId?: string): Promise<void> {
    const { db, storage } = this.deps;
    const log = jobLog(this.deps.log, 'data export', requestId);
    const key = `exports/${publicId}.zip`;
    try {
      const zip = new yazl.ZipFile();
      // A file that cannot be read fails the archive, and with it this export (never the process).
      zip.on('error', (err: Error) => (zip.outputStream as Readable).destroy(err));
      // The archive goes to a temp file as it is made (never whole in memory), then on to the file store.
      const written = this.temp.write(zip.outputStream as Readable);
      let failure: unknown = null;
      try {
        await this.fill(zip, userId);
      } catch (err) {
        failure = err;
      }
      zip.end();
      const file = await written;
      try {
        if (failure) throw failure;
        await storage.putStream(key, createReadStream(file.path), file.size);
      } finally {
        await file.remove();
      }
      await repo.finishExport(db, publicId, { status: 'ready', storage_key: key, size: file.size });
    } catch (err) {
      log.error({ err }, 'data export failed');
      await repo
        .finishExport(db, publicId, { status: 'failed', storage_key: null, size: null })
        .catch((e) => log.error({ err: e }, 'could not mark a data export failed'));
      return;
    }
    // The export is ready whatever the mail does: Settings lists it too.
    await this.mailLink(userId, publicId, log).catch((err) => log.error({ err }, 'data export mail failed'));
  }

  /** Adds every entry; chat by chat, so only one chat's messages are in memory at a time. */
  private async fill(zip: yazl.ZipFile, userId: number): Promise<void> {
    const { accounts, users, avatars, chats, attachments, storage } = this.deps;
    zip.addBuffer(Buffer.from(README), 'README.txt');
    zip.addBuffer(json(await accounts.ownProfile(userId)), 'profile.json');
    zip.addBuffer(json(await accounts.settings(userId)), 'settings.json');
    const avatar = await users.avatarOf(userId);
    const picture = avatar ? await avatars.read(avatar) : null;
    if (picture) zip.addBuffer(picture, 'avatar.webp', { compress: false });

    const list = await chats.listChats(userId);
    zip.addBuffer(
      json(
        list.map((c) => ({
          chat_id: c.chat_id,
          is_private: c.is_private,
          name: c.display_name,
          member_count: c.member_count,
          with: c.other_user?.username ?? null,
        })),
      ),
      'chats.json',
    );
    for (const chat of list) {
      const all = await this.messagesOf(userId, chat.chat_id);
      // A chat the person left while this ran is not theirs to export any more.
      if (all === null) continue;
      const entry = { chat_id: chat.chat_id, name: chat.display_name, messages: all };
      zip.addBuffer(json(entry), `chats/${chat.chat_id}.json`);
    }

    for (const f of await attachments.uploadedBy(userId)) {
      const size = await storage.size(f.storage_key);
      if (size === null) continue;
      // Opened only when the archive reaches it: one file open at a time, however many there are.
      const options = { size, compress: !STORED_AS_IS.test(f.mime), mtime: new Date(f.created_at) };
      zip.addReadStreamLazy(`files/${f.id}-${entryName(f.name)}`, options, (done) => {
        storage.get(f.storage_key).then(
          (stored) =>
            stored ? done(null, stored.stream) : done(new Error('stored file vanished'), null as never),
          (err) => done(err, null as never),
        );
      });
    }
  }

  /** A chat's messages as the person sees them, oldest first; null when they are no longer a member. */
  private async messagesOf(userId: number, chatId: string) {
    const all = [];
    try {
      for (let after = 0; ; ) {
        const page = await this.deps.messages.history(userId, chatId, { after, limit: HISTORY_PAGE });
        all.push(...page);
        const last = page[page.length - 1];
        if (!last || page.length < HISTORY_PAGE) return all;
        after = last.id;
      }
    } catch (err) {
      if (err instanceof NotFoundError) return null;
      throw err;
    }
  }

  private async mailLink(userId: number, publicId: string, log: FastifyBaseLogger): Promise<void> {
    const { config, users, mailer } = this.deps;
    const person = await users.mailRecipient(userId);
    if (!person) return;
    const base = config.publicUrl ?? `http://localhost:${config.port}`;
    const t = textsIn(mailLocale(person));
    await mailer.send(
      {
        to: person.email,
        subject: t('mail.export.subject'),
        text: t('mail.export.body', { hours: EXPORT_TTL_HOURS, url: `${base}${exportPagePath(publicId)}` }),
      },
      log,
    );
  }
}
