import type { Message, ReplyQuote } from '@parley/protocol';
import { useState } from 'react';
import { Link } from 'react-router';
import { t as textOf, useT } from '../../../lib/i18n/i18n';
import { fullDateTime } from '../../../lib/text/locale-format';
import { RichText } from '../../../lib/text/rich-text/rich-text';
import { cn } from '../../../lib/ui/cn';
import { splitMentions } from '../lib/mentions';
import type { MessageActions } from './message-actions-context';

// The pieces of a message bubble for replies, mentions and reactions: the body with its mentions, the quote of the message
// it answers, '(edited)', and the reaction chips under it. All text is rendered by React, never as HTML; the
// body's light formatting is lib/text/rich-text's.

/** A date and time in full, in the reader's locale, for '(edited)' and the earlier versions. */
export const fullTimeOf = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'Invalid Date' : fullDateTime(date);
};

/** Whom a body mentions: only members the server counted in `mentions`, by their usernames. */
function mentionedUsernames(message: Message, actions: MessageActions | null): Map<string, string> {
  const out = new Map<string, string>();
  if (!actions) return out;
  for (const id of message.mentions) {
    const username = actions.usernameById.get(id);
    if (username) out.set(username.toLowerCase(), username);
  }
  return out;
}

export function MessageBody({
  message,
  actions,
  own,
}: {
  message: Message;
  actions: MessageActions | null;
  own: boolean;
}) {
  const t = useT();
  if (message.is_deleted) return <p className="italic opacity-80">{t('room.msg.deleted')}</p>;
  if (!message.body) return null;
  const usernames = mentionedUsernames(message, actions);
  // Runs of plain text (outside code and links) with their mentions linked to the profile.
  const renderText = (text: string) =>
    splitMentions(text, usernames).map((part, i) =>
      part.kind === 'text' ? (
        part.text
      ) : (
        <Link
          key={i}
          to={
            part.username === actions?.usernameById.get(actions.meId)
              ? '/profile'
              : `/user/${encodeURIComponent(part.username)}`
          }
          data-mention={part.username}
          className={cn(
            'rounded px-0.5 font-semibold hover:underline',
            // In one's own bubble (brand-600 in both themes) a darker chip keeps white text past 4.5:1; a
            // white veil over the bubble left it at 4.39:1.
            own
              ? 'bg-brand-800 text-white'
              : 'bg-brand-50 dark:bg-brand-500/15 text-brand-700 dark:text-brand-200',
          )}
        >
          {part.text}
        </Link>
      ),
    );
  // A long word or address breaks anywhere rather than widen the bubble past the room. dir="auto": a body takes
  // the direction of its own first strong letter, whatever the app's language (Hebrew in an English app reads
  // right to left, English in an Arabic one left to right).
  return (
    <p
      dir="auto"
      translate="no"
      data-testid="message-body"
      className="whitespace-pre-wrap [overflow-wrap:anywhere]"
    >
      <RichText body={message.body} renderText={renderText} />
    </p>
  );
}

/** 'Blocked message — show': what stands for the text of someone the reader blocked until they ask for it. */
export function BlockedFold({ onShow, className }: { onShow: () => void; className?: string }) {
  const t = useT();
  return (
    <p className={cn('text-xs', className)}>
      {t('room.msg.blocked')} —{' '}
      <button
        type="button"
        onClick={onShow}
        className="font-medium text-brand-700 dark:text-brand-300 underline underline-offset-2"
      >
        {t('room.msg.showBlocked')}
      </button>
    </p>
  );
}

/**
 * A reply's quote, folded as the room folds their messages while the quoted sender is someone the reader
 * blocked (`blocked`), until asked for.
 */
export function ReplyQuoteView({
  blocked,
  ...props
}: {
  quote: ReplyQuote;
  own: boolean;
  blocked: boolean;
  onClick?: () => void;
}) {
  const [unfolded, setUnfolded] = useState(false);
  if (blocked && !unfolded)
    return (
      <BlockedFold
        onShow={() => setUnfolded(true)}
        className={cn(
          'mb-1 rounded-lg border-s-4 border-dashed px-2 py-1',
          props.own
            ? 'border-white/70 text-white/90 [&_button]:text-white'
            : 'border-slate-300 text-slate-600 dark:border-slate-700 dark:text-slate-400',
        )}
      />
    );
  return <QuoteButton {...props} />;
}

/** The quoted message a reply answers; clicking it shows the original. */
export function QuoteButton({
  quote,
  own,
  onClick,
}: {
  quote: ReplyQuote;
  own: boolean;
  onClick?: () => void;
}) {
  const t = useT();
  const text = quote.is_deleted ? t('room.msg.deleted') : quote.body;
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={!onClick}
      aria-label={t('room.msg.quoteLabel', { name: quote.sender_name, text })}
      data-testid="reply-quote"
      className={cn(
        'mb-1 block w-full min-w-0 rounded-lg border-s-4 px-2 py-1 text-start text-xs',
        own
          ? 'border-white/70 bg-white/15 text-white/90'
          : 'border-brand-500 bg-slate-100 dark:bg-slate-800 text-slate-600 dark:text-slate-400',
        onClick && 'cursor-pointer hover:opacity-90',
      )}
    >
      <span translate="no" className="block font-semibold">
        {quote.sender_name}
      </span>
      <span
        translate={quote.is_deleted ? undefined : 'no'}
        className={cn('line-clamp-2 [overflow-wrap:anywhere]', quote.is_deleted && 'italic')}
      >
        {text}
      </span>
    </button>
  );
}

/** '(edited)' with the time on hover; it opens the earlier versions. */
export function EditedMark({ message, onOpen }: { message: Message; onOpen?: () => void }) {
  const t = useT();
  if (!message.edited_at || message.is_deleted) return null;
  const when = t('room.msg.editedAt', { when: fullTimeOf(message.edited_at) });
  return (
    <button
      type="button"
      title={when}
      aria-label={t('room.msg.editedLabel', { when })}
      onClick={onOpen}
      className="underline-offset-2 hover:underline"
    >
      {t('room.msg.edited')}
    </button>
  );
}

/** Who reacted with one emoji, by the chat's member names ('You' for oneself). */
export function reactorsText(userIds: number[], actions: Pick<MessageActions, 'meId' | 'names'>): string {
  const names = userIds.map((id) =>
    id === actions.meId ? textOf('room.msg.you') : (actions.names.get(id) ?? textOf('room.msg.someone')),
  );
  return names.join(', ');
}

export function ReactionChips({ message, actions }: { message: Message; actions: MessageActions | null }) {
  const t = useT();
  if (message.reactions.length === 0 || message.is_deleted || !actions) return null;
  return (
    <ul aria-label={t('room.msg.reactions')} className="mt-1 flex flex-wrap gap-1 px-1">
      {message.reactions.map((r) => {
        const who = reactorsText(r.user_ids, actions);
        return (
          <li key={r.emoji}>
            <button
              type="button"
              aria-pressed={r.me}
              aria-label={t(r.me ? 'room.msg.reactionMine' : 'room.msg.reactionOthers', {
                emoji: r.emoji,
                count: r.count,
                who,
              })}
              title={t('room.msg.reactedWith', { who, emoji: r.emoji })}
              onClick={() => actions.toggleReaction(message, r.emoji)}
              data-testid="reaction"
              className={cn(
                'inline-flex h-7 items-center gap-1 rounded-full border px-2 text-xs shadow-sm transition-colors',
                r.me
                  ? 'border-brand-200 dark:border-brand-500/40 bg-brand-50 dark:bg-brand-500/15 text-brand-800 dark:text-brand-200 hover:bg-brand-100 dark:hover:bg-brand-500/25'
                  : 'border-slate-200 dark:border-slate-800 bg-white dark:bg-slate-900 text-slate-700 dark:text-slate-300 hover:bg-slate-50 dark:hover:bg-slate-800',
              )}
            >
              <span className="text-sm leading-none">{r.emoji}</span>
              <span className="font-medium tabular-nums">{r.count}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
