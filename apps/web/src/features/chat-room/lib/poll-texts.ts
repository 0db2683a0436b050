import type { Poll } from '@parley/protocol';
import { t } from '../../../lib/i18n/i18n';

// What a poll card says, and what a click on an answer asks for.

export const votesText = (n: number) => t('room.poll.votes', { count: n });

/** The line under the question: closed or how many may be chosen, anonymous or not, and how many voted. */
export function pollSummary(poll: Pick<Poll, 'closed' | 'anonymous' | 'multiple' | 'voter_count'>): string {
  return [
    poll.closed ? t('room.poll.closed') : poll.multiple ? t('room.poll.any') : t('room.poll.one'),
    poll.anonymous ? t('room.poll.anonymous') : null,
    t('room.poll.voters', { count: poll.voter_count }),
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * The reader's choices after a click on answer `index`: in a poll of several answers it is added or taken away;
 * in a poll of one it replaces the choice, or, clicked again, takes the vote back.
 */
export function choiceAfter(poll: Pick<Poll, 'multiple' | 'my_votes'>, index: number): number[] {
  const chosen = poll.my_votes.includes(index);
  if (!poll.multiple) return chosen ? [] : [index];
  const next = chosen ? poll.my_votes.filter((i) => i !== index) : [...poll.my_votes, index];
  return next.sort((a, b) => a - b);
}
