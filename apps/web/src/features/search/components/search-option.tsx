import { BadgeCheck, ChevronDown } from 'lucide-react';
import type { ReactNode } from 'react';
import { Avatar } from '../../../components/avatar';
import { Spinner } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n/i18n';
import { SLOT, Slotted } from '../../../lib/i18n/slotted';
import { listTime } from '../../../lib/text/locale-format';
import { cn } from '../../../lib/ui/cn';
import { snippetAround } from '../lib/highlight';
import type { SearchOption } from '../lib/result-model';
import { HighlightedText } from './highlighted-text';

/** One row of a listbox; the input keeps focus, so a press must not take it (mousedown is cancelled). */
export function OptionRow({
  id,
  active,
  onHover,
  onPick,
  children,
}: {
  id: string;
  active: boolean;
  onHover: () => void;
  onPick: () => void;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's input handles the keys (aria-activedescendant).
    <div
      id={id}
      role="option"
      aria-selected={active}
      tabIndex={-1}
      onMouseDown={(event) => event.preventDefault()}
      onMouseMove={onHover}
      onClick={onPick}
      className={cn(
        'flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2',
        active
          ? 'bg-brand-50 dark:bg-brand-500/15 ring-1 ring-brand-200'
          : 'hover:bg-slate-50 dark:hover:bg-slate-800',
      )}
    >
      {children}
    </div>
  );
}

/** What an option shows: a person, a chat, a message with its matched words marked, or 'More results'. */
export function SearchOptionContent({
  option,
  ownId,
  loadingMore,
  now,
}: {
  option: SearchOption;
  ownId: number | undefined;
  loadingMore: boolean;
  now: Date;
}) {
  const t = useT();
  switch (option.kind) {
    case 'person': {
      const { person } = option;
      return (
        <>
          <Avatar src={person.avatar} name={option.name} size="sm" />
          <span className="min-w-0 flex-1">
            <span className="flex min-w-0 items-center gap-1 text-sm font-medium text-slate-900 dark:text-slate-100">
              <span className="truncate" translate="no">
                <HighlightedText text={option.name} ranges={option.highlights} />
              </span>
              {person.is_blue_verified && (
                <BadgeCheck
                  role="img"
                  aria-label={t('room.header.verified')}
                  className="size-4 shrink-0 text-sky-500"
                />
              )}
              {person.id === ownId && (
                <span className="text-xs font-normal text-slate-500 dark:text-slate-400">
                  {t('browse.search.you')}
                </span>
              )}
            </span>
            <span className="block truncate text-xs text-slate-600 dark:text-slate-400">
              <span dir="ltr" translate="no" className="inline-block max-w-full truncate align-bottom">
                @{person.username}
              </span>
            </span>
          </span>
        </>
      );
    }
    case 'chat': {
      const { chat } = option;
      return (
        <>
          <Avatar
            src={chat.is_private ? (chat.other_user?.avatar ?? chat.avatar) : chat.avatar}
            name={chat.display_name}
            group={!chat.is_private}
            size="sm"
            tone="muted"
          />
          <span className="min-w-0 flex-1">
            <span
              translate="no"
              className="block truncate text-sm font-medium text-slate-900 dark:text-slate-100"
            >
              <HighlightedText text={chat.display_name} ranges={option.highlights} />
            </span>
            <span className="block truncate text-xs text-slate-600 dark:text-slate-400">
              {chat.is_private
                ? t('browse.search.privateChat')
                : t('browse.search.group', { count: chat.member_count })}
            </span>
          </span>
        </>
      );
    }
    case 'message': {
      const { message, chat, highlights } = option.result;
      const snippet = snippetAround(message.body, highlights);
      const mine = message.sender !== null && message.sender === ownId;
      return (
        <>
          <Avatar src={message.sender_avatar} name={message.sender_name} size="sm" />
          <span className="min-w-0 flex-1">
            <span className="flex items-baseline gap-2 text-xs text-slate-600 dark:text-slate-400">
              <span className="truncate">
                <span translate="no" className="font-medium text-slate-800 dark:text-slate-200">
                  {chat.display_name}
                </span>
                {/* A private chat is named after the other person: their own messages need no name. */}
                {(!chat.is_private || mine) && ' · '}
                {mine
                  ? t('room.msg.you')
                  : !chat.is_private && <span translate="no">{message.sender_name}</span>}
              </span>
              <time dateTime={message.timestamp} className="ms-auto shrink-0">
                {listTime(message.timestamp, now)}
              </time>
            </span>
            <span
              translate="no"
              className="block text-sm break-words text-slate-800 dark:text-slate-200 line-clamp-2"
            >
              <HighlightedText text={snippet.text} ranges={snippet.ranges} />
            </span>
          </span>
        </>
      );
    }
    case 'more':
      return (
        <span className="flex w-full items-center justify-center gap-2 py-0.5 text-sm font-medium text-brand-700 dark:text-brand-200">
          {loadingMore ? <Spinner size="sm" /> : <ChevronDown aria-hidden="true" className="size-4" />}
          {loadingMore ? t('browse.search.loadingMore') : t('browse.search.more')}
        </span>
      );
  }
}

/** 'No results for "…"', what was typed marked as the person's own words. */
export function NoResults({ typed }: { typed: string }) {
  const t = useT();
  return (
    <Slotted text={t('browse.search.noResults', { query: SLOT })}>
      <span translate="no">{typed}</span>
    </Slotted>
  );
}
