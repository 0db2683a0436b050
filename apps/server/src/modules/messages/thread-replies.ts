import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import type { Checked, Pending, RepliedThread } from './message-batch';
import { followersOf, participantsOf, recordReplies, rootCounts } from './threads.repo';

/**
 * Counts the batch's thread replies on their roots and records who follows each thread, then reads each
 * thread as it now stands (inside the transaction: what the room is told matches what was stored).
 */
export async function countReplies(
  trx: Transaction<Database>,
  checked: Checked,
  ids: Map<Pending, number>,
): Promise<Map<number, RepliedThread>> {
  const replies = checked.accepted.flatMap((p) => {
    const id = ids.get(p);
    if (id === undefined || !p.threadRoot || p.senderId === null) return [];
    const root = checked.quoteOf.get(p.threadRoot);
    return [
      {
        root: p.threadRoot,
        id,
        senderId: p.senderId,
        createdAt: p.createdAt,
        rootAuthor: root?.sender_id ?? null,
        mentions: p.mentions ?? [],
      },
    ];
  });
  const threads = new Map<number, RepliedThread>();
  if (replies.length === 0) return threads;
  await recordReplies(trx, replies);
  const rootIds = [...new Set(replies.map((r) => r.root))];
  const [counts, participants, followers] = await Promise.all([
    rootCounts(trx, rootIds),
    participantsOf(trx, rootIds),
    followersOf(trx, rootIds),
  ]);
  for (const c of counts)
    threads.set(c.id, {
      summary: {
        reply_count: c.thread_reply_count,
        last_reply_at: c.thread_last_reply_at ?? '',
        participant_ids: participants.get(c.id) ?? [],
      },
      followerIds: followers.get(c.id) ?? [],
    });
  return threads;
}
