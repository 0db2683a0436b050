import type { Db } from '../../db/database';
import type { UsersService } from '../accounts/users.service';
import type { ChatMembership } from '../chats/chat-membership';
import type { BlocksService } from '../safety/blocks.service';
import type { Pending, SideReads } from './message-batch';
import { type QuotedRow, quotesOf } from './messages.repo';

export interface BesideDeps {
  db: Db;
  chats: Pick<ChatMembership, 'mutedIn'>;
  users: Pick<UsersService, 'cards'>;
  blocks: Pick<BlocksService, 'blocksInvolving' | 'relatedTo'>;
}

/**
 * What the batch reads beside its transaction (on PostgreSQL another pooled connection), one round trip off
 * the wait: the messages its replies quote and the roots of its thread replies (they never move between chats
 * nor into a thread, so reading them beside is safe),
 * the cards of their senders and of the batch's, the blocks between the people of its private chats (one
 * made before a message was queued is in the table by now) and who muted each chat.
 */
export function readBeside(deps: BesideDeps, batch: Pending[], chatIds: number[]): SideReads {
  const { db, chats, users, blocks } = deps;
  const senderIds = batch.flatMap((p) => (p.senderId === null ? [] : [p.senderId]));
  const replyIds = [
    ...new Set(
      batch.flatMap((p) => [...(p.replyTo ? [p.replyTo] : []), ...(p.threadRoot ? [p.threadRoot] : [])]),
    ),
  ];
  const quotes = quotesOf(db, replyIds);
  const quotedIds = (q: QuotedRow[]) => q.flatMap((m) => (m.sender_id === null ? [] : [m.sender_id]));
  const cards = quotes.then((q) => users.cards([...new Set([...senderIds, ...quotedIds(q)])]));
  const privateSenders = [
    ...new Set(batch.flatMap((p) => (p.chat.is_private && p.senderId !== null ? [p.senderId] : []))),
  ];
  const side: SideReads = {
    quotes,
    cards,
    blocks: privateSenders.length > 0 ? blocks.blocksInvolving(privateSenders) : Promise.resolve([]),
    muted: chats.mutedIn(chatIds),
    related: relatedOf(blocks, senderIds),
  };
  // Awaited later; a failed write must not leave them unhandled.
  cards.catch(() => {});
  side.blocks.catch(() => {});
  side.muted.catch(() => {});
  side.related.catch(() => {});
  return side;
}

/** The people a block stands between with each sender, read beside the batch. */
async function relatedOf(
  blocks: Pick<BlocksService, 'relatedTo'>,
  senderIds: number[],
): Promise<Map<number, Set<number>>> {
  const unique = [...new Set(senderIds)];
  const related = await Promise.all(unique.map((id) => blocks.relatedTo(id)));
  return new Map(unique.map((id, i) => [id, related[i] as Set<number>]));
}
