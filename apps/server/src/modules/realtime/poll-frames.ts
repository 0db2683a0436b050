import type { ServerFrame } from '@parley/protocol';
import type { DomainEventMap } from '../../platform/events';

type PollFrame = Extract<ServerFrame, { type: 'poll_updated' }>;

/**
 * A poll's `poll_updated` frames: one for everyone who has not voted (`my_votes` empty), and one per distinct
 * set of choices among the voters, with the voters it is for. Each reader gets only the frame of their own
 * choices (Hub, BusMessage.variants), so nobody learns anyone else's from it, anonymous poll or not.
 */
export function pollFrames({ messageId, poll, choices }: DomainEventMap['poll.updated']): {
  frame: PollFrame;
  variants: { frame: PollFrame; userIds: number[] }[];
} {
  const frame: PollFrame = { type: 'poll_updated', message_id: messageId, poll };
  const byChoice = new Map<string, { options: number[]; userIds: number[] }>();
  for (const c of choices) {
    if (c.options.length === 0) continue;
    const key = c.options.join(',');
    const entry = byChoice.get(key) ?? { options: c.options, userIds: [] };
    entry.userIds.push(c.userId);
    byChoice.set(key, entry);
  }
  const variants = [...byChoice.values()].map(({ options, userIds }) => ({
    frame: { ...frame, poll: { ...poll, my_votes: options } },
    userIds,
  }));
  return { frame, variants };
}
