import { afterEach, vi } from 'vitest';
import type { ChatRef } from '../modules/chats/chat-membership';
import type { Draft } from '../modules/messages/message-batch';
import type { DomainEventMap } from '../platform/events';
import { messagesWorld } from './messages-world';

// The writer's tests share this: Ada, Grace and Alan, a pair chat (Ada, Grace) and a group (all three), and
// one log of every transaction and every publication, so a test reads off which messages shared a
// transaction and that they were published after its commit. Call useWriterHarness() at a file's top.

type Published = DomainEventMap['message.published'];

export function useWriterHarness() {
  let close: (() => Promise<void>) | null = null;
  afterEach(async () => {
    vi.restoreAllMocks();
    await close?.();
    close = null;
  });

  return async function setUp() {
    const w = await messagesWorld();
    close = () => w.db.destroy();
    const [ada, grace, alan] = [await w.person('Ada'), await w.person('Grace'), await w.person('Alan')];
    const pair = await w.chat([ada, grace]);
    const group = await w.chat([ada, grace, alan], { group: true });
    const log: string[] = [];
    const published: Published[] = [];
    w.traceTransactions(log);
    w.events.on('message.published', (e) => {
      published.push(e);
      log.push(`publish ${e.message.body}${e.resend ? ' (resend)' : ''}`);
    });
    const send = (
      senderId: number | null,
      chat: Draft['chat'],
      body: string,
      o: { clientId?: string; fileIds?: number[] } = {},
    ) => w.writer.write({ chat, senderId, clientId: o.clientId ?? null, body, fileIds: o.fileIds ?? [] });
    /** The chat's stored messages, oldest first, straight from the table. */
    const stored = (chat: ChatRef) =>
      w.db
        .selectFrom('messages')
        .select(['id', 'body'])
        .where('chat_id', '=', chat.id)
        .orderBy('id')
        .execute();
    return { ...w, ada, grace, alan, pair, group, log, published, send, stored };
  };
}

export const idsOf = (written: { message: { id: number } }[]) => written.map((r) => r.message.id);
export const increasing = (ids: number[]) => ids.every((id, i) => i === 0 || id > (ids[i - 1] ?? 0));
