import { type Message, type Poll, pollShare } from '@parley/protocol';
import { Check, Lock } from 'lucide-react';
import { useId } from 'react';
import { useT } from '../../../lib/i18n/i18n';
import { cn } from '../../../lib/ui/cn';
import { choiceAfter, pollSummary, votesText } from '../lib/poll-texts';
import type { MessageActions } from './message-actions-context';
import { reactorsText } from './message-parts';

interface Props {
  message: Message;
  poll: Poll;
  own: boolean;
  /** Absent where nothing can be done with the message (a pending one, a list without a room). */
  actions: MessageActions | null;
}

/**
 * A poll inside its message: each answer a button with its live bar, share and count, a check on the reader's
 * own choices (aria-pressed); who chose it, unless the poll is anonymous; 'Retract vote', and 'Close poll' for its
 * author. What an answer's button says is what it shows ('Soup: 50%, 1 vote · Ada'), so a spoken name and the
 * text on screen agree.
 * Loaded with the first poll a room shows (message-item.tsx).
 */
export default function PollCard({ message, poll, own, actions }: Props) {
  const t = useT();
  const headingId = useId();
  const mine = new Set(poll.my_votes);
  const canVote = actions !== null && message.id > 0 && !poll.closed;
  const choose = (index: number) => {
    if (canVote) actions.vote(message, choiceAfter(poll, index));
  };
  return (
    <section
      aria-labelledby={headingId}
      data-testid="poll"
      className="my-1 w-72 max-w-full rounded-xl border border-slate-200 bg-white p-3 text-slate-900 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100"
    >
      <h3 id={headingId} className="text-sm font-semibold [overflow-wrap:anywhere]">
        <span className="sr-only">{t('room.poll.label')} </span>
        <span translate="no">{poll.question}</span>
      </h3>
      <p className="mt-0.5 flex items-center gap-1 text-xs text-slate-600 dark:text-slate-300">
        {poll.closed && <Lock aria-hidden="true" className="size-3" />}
        {pollSummary(poll)}
      </p>
      <ul className="mt-2 space-y-1.5" aria-label={t('room.poll.answers')}>
        {poll.options.map((option, index) => {
          const share = pollShare(option.votes, poll.voter_count);
          const chosen = mine.has(index);
          const voters = option.voters?.length && actions ? reactorsText(option.voters, actions) : null;
          return (
            <li key={index}>
              <button
                type="button"
                aria-pressed={chosen}
                aria-disabled={!canVote || undefined}
                title={voters ? t('room.poll.voted', { voters }) : undefined}
                onClick={() => choose(index)}
                data-testid="poll-option"
                className={cn(
                  'relative block w-full overflow-hidden rounded-lg border px-2.5 py-1.5 text-start text-sm transition-colors',
                  chosen
                    ? 'border-brand-500 dark:border-brand-300'
                    : 'border-slate-200 dark:border-slate-600',
                  canVote ? 'hover:bg-slate-50 dark:hover:bg-slate-700' : 'cursor-default',
                )}
              >
                <span
                  aria-hidden="true"
                  data-testid="poll-bar"
                  style={{ width: `${share}%` }}
                  className={cn(
                    'absolute inset-y-0 start-0 transition-[width] duration-500 ease-out motion-reduce:transition-none',
                    chosen ? 'bg-brand-100 dark:bg-brand-500/30' : 'bg-slate-100 dark:bg-slate-700',
                  )}
                />
                <span className="relative flex items-center gap-2">
                  <span
                    aria-hidden="true"
                    className={cn(
                      'inline-flex size-4 shrink-0 items-center justify-center border',
                      poll.multiple ? 'rounded' : 'rounded-full',
                      chosen
                        ? 'border-brand-600 bg-brand-600 text-white dark:border-brand-300 dark:bg-brand-300 dark:text-slate-900'
                        : 'border-slate-400 dark:border-slate-400',
                    )}
                  >
                    {chosen && <Check className="size-3" strokeWidth={3} />}
                  </span>
                  <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">
                    <span translate="no">{option.text}</span>
                    <span className="sr-only">: </span>
                  </span>
                  <span className="shrink-0 text-xs font-medium tabular-nums" data-testid="poll-share">
                    {share}%
                  </span>
                </span>
                <span className="relative mt-0.5 block truncate ps-6 text-xs text-slate-600 dark:text-slate-300">
                  <span className="sr-only">, </span>
                  {votesText(option.votes)}
                  {voters && ` · ${voters}`}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {actions && message.id > 0 && !poll.closed && (poll.my_votes.length > 0 || own) && (
        <div className="mt-2 flex flex-wrap justify-end gap-2">
          {poll.my_votes.length > 0 && (
            <button
              type="button"
              onClick={() => actions.vote(message, [])}
              className="rounded-md px-2 py-1 text-xs font-medium text-slate-700 underline hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-700"
            >
              {t('room.poll.retract')}
            </button>
          )}
          {own && (
            <button
              type="button"
              onClick={() => actions.closePoll(message)}
              className="rounded-md border border-slate-300 px-2 py-1 text-xs font-medium text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-700"
            >
              {t('room.poll.close')}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
