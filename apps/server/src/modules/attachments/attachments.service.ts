import type { ChatFile } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import sharp from 'sharp';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { NotFoundError, UnsupportedMediaTypeError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import { type FileStorage, randomFileName } from '../../platform/storage';
import * as repo from './attachments.repo';
import { cleanFileName, detectKind } from './file-kinds';
import type { UrlSigner } from './url-signer';

interface Deps {
  db: Db;
  storage: FileStorage;
  signer: UrlSigner;
  events: DomainEvents;
  log: FastifyBaseLogger;
}

const THUMB_SIZE = 320;
export const ATTACHMENT_TYPE_REFUSED =
  'This file type is not supported. Attach images, videos, PDF, Word (.doc, .docx) or text (.txt) files.';

/** Chat attachments: checked by their bytes, stored behind the storage interface, served by signed URLs. */
export class AttachmentsService {
  private readonly db: Db;
  private readonly storage: FileStorage;
  private readonly signer: UrlSigner;
  private readonly log: FastifyBaseLogger;

  constructor(deps: Deps) {
    this.db = deps.db;
    this.storage = deps.storage;
    this.signer = deps.signer;
    this.log = deps.log;
    deps.events.on('user.deleted', async ({ userId }) =>
      this.removeKeys(await repo.keysOfUploader(this.db, userId)),
    );
  }

  /** Stores uploads for a chat the caller is a member of (checked by the caller) and returns their views. */
  async upload(
    chatDbId: number,
    uploaderId: number,
    uploads: { name: string; bytes: Buffer }[],
  ): Promise<ChatFile[]> {
    const kinds = await Promise.all(uploads.map((u) => detectKind(u.bytes, u.name)));
    // Refuse the whole request before storing anything.
    if (kinds.some((k) => k === null)) throw new UnsupportedMediaTypeError(ATTACHMENT_TYPE_REFUSED);
    const views: ChatFile[] = [];
    for (const [i, upload] of uploads.entries()) {
      const kind = kinds[i];
      if (!kind) continue;
      const key = `files/${randomFileName(kind.ext)}`;
      let thumbKey: string | null = null;
      if (kind.type === 'image') {
        const thumb = await sharp(upload.bytes, { animated: false })
          .rotate()
          .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true })
          .webp({ quality: 75 })
          .toBuffer()
          .catch(() => null);
        if (!thumb) throw new UnsupportedMediaTypeError('The image could not be read.');
        thumbKey = `files/${randomFileName('webp')}`;
        await this.storage.put(thumbKey, thumb);
      }
      await this.storage.put(key, upload.bytes);
      const row = {
        chat_id: chatDbId,
        uploader_id: uploaderId,
        message_id: null,
        type: kind.type,
        mime: kind.mime,
        name: cleanFileName(upload.name, kind.ext),
        size: upload.bytes.length,
        storage_key: key,
        thumb_key: thumbKey,
        created_at: new Date().toISOString(),
      };
      const id = await repo.insertFile(this.db, row);
      views.push(this.view({ id, ...row }));
    }
    return views;
  }

  view(row: repo.FileRow): ChatFile {
    return {
      id: row.id,
      type: row.type,
      file: `/api/files/${row.id}/${encodeURIComponent(row.name)}?${this.signer.sign(String(row.id))}`,
      name: row.name,
      size: row.size,
      thumbnail: row.thumb_key ? `/api/files/${row.id}/thumb?${this.signer.sign(`${row.id}.thumb`)}` : null,
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
    const rows = await repo.filesOfMessages(this.db, messageIds);
    const map = new Map<number, ChatFile[]>();
    for (const r of rows) {
      if (r.message_id === null) continue;
      const list = map.get(r.message_id) ?? [];
      list.push(this.view(r));
      map.set(r.message_id, list);
    }
    return map;
  }

  /** The file behind a signed URL, or 404 (a bad or expired signature learns nothing more). */
  async open(id: number, thumb: boolean, exp?: string, sig?: string) {
    if (!this.signer.verify(thumb ? `${id}.thumb` : String(id), exp, sig)) throw new NotFoundError();
    const row = await repo.findFile(this.db, id);
    const key = row && (thumb ? row.thumb_key : row.storage_key);
    if (!row || !key) throw new NotFoundError();
    const stored = await this.storage.get(key);
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

  /** Storage keys of a chat's files, read before the chat goes; removeKeys deletes them after. */
  keysOfChat(chatDbId: number) {
    return repo.keysOfChat(this.db, chatDbId);
  }

  async removeKeys(rows: { storage_key: string; thumb_key: string | null }[]): Promise<void> {
    for (const r of rows) {
      for (const key of [r.storage_key, r.thumb_key]) {
        if (key)
          await this.storage.delete(key).catch((err) => this.log.warn({ err }, 'could not remove a file'));
      }
    }
  }
}
