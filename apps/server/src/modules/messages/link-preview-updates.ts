import { LINK_PREVIEW_TEXT, MESSAGE_TEXT } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database';
import { ForbiddenError, NotFoundError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import type { Lifecycle } from '../../platform/lifecycle';
import type { ChatMembership } from '../chats/chat-membership';
import type { LinkPreviewsService } from '../link-previews/link-previews.service';
import { firstLink } from '../link-previews/page-meta';
import * as repo from './message-changes.repo';
import type { MessageReader } from './message-reader';

interface Deps {
  db: Db;
  events: DomainEvents;
  lifecycle: Pick<Lifecycle, 'track'>;
  log: FastifyBaseLogger;
  membership: Pick<ChatMembership, 'ref' | 'requireMember'>;
  previews: Pick<LinkPreviewsService, 'enabled' | 'hasRoom' | 'previewOf'>;
  reader: Pick<MessageReader, 'byId'>;
}

/**
 * A message's link preview: looked for once the message is published (so it never holds up its delivery), and
 * again when an edit changes its first link; the room hears `message_updated` when one is shown or removed.
 */
export class LinkPreviewUpdates {
  constructor(private readonly deps: Deps) {
    if (!deps.previews.enabled) return;
    const { events } = deps;
    events.on('message.published', ({ chatId, message, resend }) => {
      if (!resend && message.kind === 'user' && firstLink(message.body)) this.later(chatId, message.id);
    });
    // An edit that changed the first link dropped the old preview; this one's own update names its link.
    events.on('message.updated', ({ chatId, message }) => {
      const link = firstLink(message.body);
      if (link && message.link_preview?.url !== link) this.later(chatId, message.id);
    });
  }

  private later(chatId: string, messageId: number): void {
    // In a flood of new links the queue is full: this one goes without, before costing a query.
    if (!this.deps.previews.hasRoom) return;
    void this.deps.lifecycle.track(this.refresh(chatId, messageId)).catch((err) => {
      this.deps.log.error({ err, message_id: messageId }, 'link preview failed');
    });
  }

  /** Shows the preview of the message's first link if it has none of it yet and its sender did not refuse one. */
  async refresh(chatId: string, messageId: number): Promise<void> {
    const { db, previews, membership, reader, events } = this.deps;
    const row = await repo.previewState(db, messageId);
    if (!row || row.deleted_at !== null || row.no_preview) return;
    const link = firstLink(row.body);
    if (!link || (row.link_preview && JSON.parse(row.link_preview).url === link)) return;
    const found = await previews.previewOf(link);
    if (!found?.preview) return;
    const set = await repo.setLinkPreview(db, {
      id: messageId,
      body: row.body,
      preview: JSON.stringify(found.preview),
      previewId: found.id,
    });
    if (!set) return;
    const message = await reader.byId(messageId, await membership.ref(chatId));
    // The chat list's excerpt is the text, which did not change.
    events.emit('message.updated', { chatId, message, latest: false });
  }

  /** The sender takes a preview off their message; none comes back, an edit's included. */
  async remove(userId: number, chatId: string, messageId: number): Promise<void> {
    const { db, membership, reader, events } = this.deps;
    const { chat } = await membership.requireMember(userId, chatId);
    const row = await repo.previewState(db, messageId);
    if (!row || row.chat_id !== chat.id) throw new NotFoundError(MESSAGE_TEXT.notFound);
    if (row.sender_id !== userId) throw new ForbiddenError(LINK_PREVIEW_TEXT.notYours);
    await repo.removeLinkPreview(db, messageId);
    if (row.link_preview === null) return;
    events.emit('message.updated', { chatId, message: await reader.byId(messageId, chat), latest: false });
  }
}
