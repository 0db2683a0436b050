import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { type ChatFile, VOICE_TEXT, type VoiceFields } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { BadRequestError, NotFoundError, UnsupportedMediaTypeError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import { sharp } from '../../platform/images';
import { type ByteRange, type FileStorage, randomFileName } from '../../platform/storage';
import { type TempFile, TempFiles } from '../../platform/temp-files';
import * as repo from './attachments.repo';
import { cleanFileName, detectKind } from './file-kinds';
import type { UrlSigner } from './url-signer';

interface Deps {
  db: Db;
  storage: FileStorage;
  signer: UrlSigner;
  events: DomainEvents;
  log: FastifyBaseLogger;
  /** Where uploads wait while they are checked (DATA_DIR/tmp/uploads). */
  tempDir: string;
}

/** An upload received to its end and waiting on disk (TempFiles) to be checked and stored. */
export interface StagedUpload extends TempFile {
  name: string;
}

const THUMB_SIZE = 320;
/**
 * The largest images thumbnailed, in pixels. A JPEG is decoded at a fraction of its size (shrink-on-load), so a
 * 200-megapixel phone photo costs a few MB; PNG and GIF decode at full size (read line by line, about 50 MB
 * for 100 megapixels), so they stop at about 8000 × 8000 — a 25 MB file of a flat colour could otherwise
 * decode to gigabytes.
 */
const THUMB_MAX_PIXELS: Record<string, number> = { 'image/jpeg': 268_402_689, 'image/webp': 268_402_689 };
const THUMB_MAX_PIXELS_OTHER = 64_000_000;
/** Thumbnails made at once by this process: decoding is the one step that needs a whole image in memory. */
const THUMB_CONCURRENCY = 2;
export const ATTACHMENT_TYPE_REFUSED =
  'This file type is not supported. Attach images, videos, audio, PDF, Word (.doc, .docx) or text (.txt) files.';

/** A stored waveform (JSON of 64 integers, checked on upload) as the file shows it. */
const waveformOf = (json: string): number[] | undefined => {
  try {
    const peaks = JSON.parse(json) as unknown;
    return Array.isArray(peaks) ? peaks.filter((p): p is number => Number.isInteger(p)) : undefined;
  } catch {
    return undefined;
  }
};

/** Chat attachments: checked by their bytes, stored behind the storage interface, served by signed URLs. */
export class AttachmentsService {
  private readonly temp: TempFiles;
  private thumbsRunning = 0;
  private readonly thumbQueue: (() => void)[] = [];

  constructor(private readonly deps: Deps) {
    this.temp = new TempFiles(deps.tempDir);
    // Before the account's rows go (with them, by cascade, its files' rows): what only they name is removed.
    deps.events.on('user.deleted', async ({ userId }) =>
      this.removeKeys(await repo.keysOfUploader(this.deps.db, userId), userId),
    );
  }

  /**
   * Receives one uploaded file to a temp file (bounded memory whatever its size). The caller removes it when the
   * request is over; a stream that fails (the request cut off) leaves nothing.
   */
  async stage(stream: Readable, name: string): Promise<StagedUpload> {
    return { ...(await this.temp.write(stream)), name };
  }

  /**
   * Stores staged uploads for a chat the caller is a member of (checked by the caller) and returns their views.
   * Every file is checked (and every image thumbnailed) before anything is stored, so a refused request stores
   * nothing; a failure while storing removes what this request had stored. With `voice`, the upload is one
   * voice message: a single audio file, stored with its duration and waveform.
   */
  async upload(
    chatDbId: number,
    uploaderId: number,
    uploads: StagedUpload[],
    voice?: VoiceFields,
  ): Promise<ChatFile[]> {
    if (voice && uploads.length !== 1) throw new BadRequestError(VOICE_TEXT.oneFile);
    const kinds = await Promise.all(uploads.map((u) => detectKind(u.path, u.name)));
    if (kinds.some((k) => k === null)) throw new UnsupportedMediaTypeError(ATTACHMENT_TYPE_REFUSED);
    if (voice && kinds[0]?.type !== 'audio') throw new UnsupportedMediaTypeError(VOICE_TEXT.notAudio);
    const thumbs: (Buffer | null)[] = [];
    for (const [i, upload] of uploads.entries())
      thumbs.push(
        kinds[i]?.type === 'image' ? await this.thumbnail(upload.path, kinds[i]?.mime ?? '') : null,
      );

    const stored: string[] = [];
    try {
      const rows: Omit<repo.FileRow, 'id'>[] = [];
      for (const [i, upload] of uploads.entries()) {
        const kind = kinds[i];
        if (!kind) continue;
        const thumb = thumbs[i];
        let thumbKey: string | null = null;
        if (thumb) {
          thumbKey = `files/${randomFileName('webp')}`;
          await this.deps.storage.put(thumbKey, thumb);
          stored.push(thumbKey);
        }
        const key = `files/${randomFileName(kind.ext)}`;
        await this.deps.storage.putStream(key, createReadStream(upload.path), upload.size);
        stored.push(key);
        rows.push({
          chat_id: chatDbId,
          uploader_id: uploaderId,
          message_id: null,
          type: kind.type,
          mime: kind.mime,
          name: cleanFileName(upload.name, kind.ext),
          size: upload.size,
          storage_key: key,
          thumb_key: thumbKey,
          created_at: new Date().toISOString(),
          kind: voice ? 'voice' : null,
          duration_ms: voice?.duration_ms ?? kind.durationMs ?? null,
          waveform: voice ? JSON.stringify(voice.waveform) : null,
          played_at: null,
        });
      }
      const ids = await this.deps.db.transaction().execute(async (trx) => {
        const out: number[] = [];
        for (const row of rows) out.push(await repo.insertFile(trx, row));
        return out;
      });
      return rows.map((row, i) => this.view({ id: ids[i] as number, ...row }));
    } catch (err) {
      await this.removeKeys(stored.map((key) => ({ storage_key: key, thumb_key: null })));
      throw err;
    }
  }

  /** A WebP of at most 320 × 320 made from an image on disk; 415 for one that cannot be decoded. */
  private async thumbnail(filePath: string, mime: string): Promise<Buffer> {
    // A slot of THUMB_CONCURRENCY; one that ends hands its slot straight to the next in line.
    if (this.thumbsRunning < THUMB_CONCURRENCY) this.thumbsRunning++;
    else await new Promise<void>((resolve) => this.thumbQueue.push(resolve));
    try {
      const thumb = await sharp(filePath, {
        animated: false,
        limitInputPixels: THUMB_MAX_PIXELS[mime] ?? THUMB_MAX_PIXELS_OTHER,
        sequentialRead: true,
      })
        .rotate()
        .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 75 })
        .toBuffer()
        .catch(() => null);
      if (!thumb) throw new UnsupportedMediaTypeError('The image could not be read.');
      return thumb;
    } finally {
      const next = this.thumbQueue.shift();
      if (next) next();
      else this.thumbsRunning--;
    }
  }

  view(row: Pick<repo.FileRow, repo.ViewColumn>): ChatFile {
    const waveform = row.waveform ? waveformOf(row.waveform) : undefined;
    return {
      id: row.id,
      type: row.type,
      file: `/api/files/${row.id}/${encodeURIComponent(row.name)}?${this.deps.signer.sign(String(row.id))}`,
      name: row.name,
      size: row.size,
      thumbnail: row.thumb_key
        ? `/api/files/${row.id}/thumb?${this.deps.signer.sign(`${row.id}.thumb`)}`
        : null,
      ...(row.kind ? { kind: row.kind } : {}),
      ...(row.duration_ms !== null ? { duration_ms: row.duration_ms } : {}),
      ...(waveform ? { waveform } : {}),
      ...(row.kind === 'voice' ? { played: row.played_at !== null } : {}),
    };
  }

  /** Attaches the sender's unsent uploads of this chat to a new message, inside its transaction. */
  /** Whether these files are the uploader's, in this chat, and not yet sent with a message. */
  async claimable(trx: Transaction<Database>, chatDbId: number, uploaderId: number, ids: number[]) {
    const unique = [...new Set(ids)];
    const rows = await repo.claimable(trx, chatDbId, uploaderId, unique);
    return rows.length === unique.length;
  }

  /** Ties checked files (claimable) to the message they were sent with. */
  async attach(trx: Transaction<Database>, ids: number[], messageId: number) {
    await repo.attachToMessage(trx, [...new Set(ids)], messageId);
  }

  async filesFor(messageIds: number[]): Promise<Map<number, ChatFile[]>> {
    return this.byMessage(await repo.filesOfMessages(this.deps.db, messageIds));
  }

  /** The files of a chat's messages from `first` to `last`, by message: a history page's, in one statement. */
  async filesInRange(chatDbId: number, first: number, last: number): Promise<Map<number, ChatFile[]>> {
    return this.byMessage(await repo.filesInRange(this.deps.db, { chat: chatDbId, first, last }));
  }

  private byMessage(rows: (Parameters<AttachmentsService['view']>[0] & { message_id: number | null })[]) {
    const map = new Map<number, ChatFile[]>();
    for (const r of rows) {
      if (r.message_id === null) continue;
      const list = map.get(r.message_id) ?? [];
      list.push(this.view(r));
      map.set(r.message_id, list);
    }
    return map;
  }

  /**
   * The file behind a signed URL (or the range of it asked for), or 404 (a bad or expired signature learns
   * nothing more); RangeNotSatisfiableError for a range past its end.
   */
  async open(id: number, thumb: boolean, exp?: string, sig?: string, range?: ByteRange) {
    if (!this.deps.signer.verify(thumb ? `${id}.thumb` : String(id), exp, sig)) throw new NotFoundError();
    const row = await repo.findFile(this.deps.db, id);
    const key = row && (thumb ? row.thumb_key : row.storage_key);
    if (!row || !key) throw new NotFoundError();
    const stored = await this.deps.storage.get(key, range);
    if (!stored) throw new NotFoundError();
    return {
      ...stored,
      mime: thumb ? 'image/webp' : row.mime,
      name: row.name,
      type: thumb ? 'image' : row.type,
    };
  }

  /**
   * Forgets a message's files inside its deletion's transaction and returns their storage keys, for removeKeys
   * once it committed: the signed URLs answer 404 from then on.
   */
  forgetFilesOf(trx: Transaction<Database>, messageId: number) {
    return repo.deleteFilesOfMessage(trx, messageId);
  }

  /** The files a person uploaded (their data export), with the keys to read them from storage. */
  uploadedBy(userId: number) {
    return repo.filesOfUploader(this.deps.db, userId);
  }

  /**
   * Marks a message's voice messages played (the messages module decided who may; `mark` false only looks).
   * `voice` false: the message has none; `marked`: the files this call marked, empty when they already were (a
   * second call changes nothing).
   */
  async markVoicePlayed(messageId: number, mark = true): Promise<{ voice: boolean; marked: number[] }> {
    const files = await repo.voiceFilesOf(this.deps.db, messageId);
    const unplayed = files.filter((f) => f.played_at === null).map((f) => f.id);
    if (unplayed.length === 0 || !mark) return { voice: files.length > 0, marked: [] };
    const marked = await repo.markPlayed(this.deps.db, unplayed, new Date().toISOString());
    return { voice: true, marked: marked.map((r) => r.id) };
  }

  /** Storage keys of a chat's files, read before the chat goes; removeKeys deletes them after. */
  keysOfChat(chatDbId: number) {
    return repo.keysOfChat(this.deps.db, chatDbId);
  }

  /** A forwarded copy's files: new rows naming the same stored objects, inside the copy's transaction. */
  copyFiles(
    trx: Transaction<Database>,
    fromMessageId: number,
    to: { chatDbId: number; messageId: number; by: number },
  ) {
    return repo.copyFilesOfMessage(trx, fromMessageId, to);
  }

  /** Removes stored objects whose rows are gone; one another row still names (a forwarded copy) stays. */
  async removeKeys(
    rows: { storage_key: string; thumb_key: string | null }[],
    /** An uploader whose rows are about to go: they do not keep an object. */
    exceptUploader?: number,
  ): Promise<void> {
    const keys = [...new Set(rows.flatMap((r) => [r.storage_key, ...(r.thumb_key ? [r.thumb_key] : [])]))];
    const inUse = new Set<string>();
    for (let i = 0; i < keys.length; i += 500)
      for (const key of await repo.keysInUse(this.deps.db, keys.slice(i, i + 500), exceptUploader))
        inUse.add(key);
    for (const key of keys) {
      if (inUse.has(key)) continue;
      await this.deps.storage
        .delete(key)
        .catch((err) => this.deps.log.warn({ err }, 'could not remove a file'));
    }
  }
}
