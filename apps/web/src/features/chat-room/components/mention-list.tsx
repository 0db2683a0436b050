import type { ReactNode } from 'react';
import { Avatar } from '../../../components/avatar';
import { useT } from '../../../lib/i18n/i18n';
import { cn } from '../../../lib/ui/cn';
import type { MentionSuggestions } from '../hooks/use-mention-suggestions';
import type { ShortcodeSuggestions } from '../hooks/use-shortcode-suggestions';

// The lists of suggestions above the composer: members for a typed @name, emoji for a typed :name. The
// textarea keeps the focus and points at the active option (aria-activedescendant).

/** What use-suggestion-list gives a list to draw. */
interface Suggestions<T> {
  open: boolean;
  listId: string;
  candidates: T[];
  active: number;
  optionId: (index: number) => string;
  pick: (item: T) => void;
}

interface ListProps<T> {
  suggestions: Suggestions<T>;
  label: string;
  keyOf: (item: T) => string | number;
  children: (item: T) => ReactNode;
}

/** The open list of a composer's suggestions (nothing while it is closed). */
export function SuggestionList<T>({ suggestions, label, keyOf, children }: ListProps<T>) {
  if (!suggestions.open) return null;
  const { listId: id, candidates: items, active, optionId, pick: onPick } = suggestions;
  return (
    <div
      id={id}
      role="listbox"
      aria-label={label}
      className="absolute end-2 bottom-full start-2 z-20 mb-1 max-h-60 overflow-y-auto rounded-xl border border-slate-200 bg-white p-1 shadow-lg sm:end-auto sm:w-72 dark:border-slate-700 dark:bg-slate-900"
    >
      {items.map((item, i) => (
        <div
          key={keyOf(item)}
          id={optionId(i)}
          role="option"
          tabIndex={-1}
          aria-selected={i === active}
          // The textarea must keep the focus: pick on mousedown, before it would blur.
          onMouseDown={(event) => {
            event.preventDefault();
            onPick(item);
          }}
          className={cn(
            'flex cursor-pointer items-center gap-2 rounded-lg px-2 py-1.5 text-sm',
            i === active
              ? 'bg-brand-50 text-brand-800 dark:bg-slate-800 dark:text-white'
              : 'text-slate-700 hover:bg-slate-50 dark:text-slate-200 dark:hover:bg-slate-800',
          )}
        >
          {children(item)}
        </div>
      ))}
    </div>
  );
}

export function MentionList({ suggestions }: { suggestions: MentionSuggestions }) {
  const t = useT();
  return (
    <SuggestionList suggestions={suggestions} label={t('room.suggest.mention')} keyOf={(c) => c.id}>
      {(c) => (
        <>
          <Avatar src={c.avatar} name={c.name} size="sm" tone="muted" />
          <span translate="no" className="min-w-0 flex-1 truncate font-medium">
            {c.name}
          </span>
          <span dir="ltr" className="truncate text-xs text-slate-600 dark:text-slate-300">
            @{c.username}
          </span>
        </>
      )}
    </SuggestionList>
  );
}

export function ShortcodeList({ suggestions }: { suggestions: ShortcodeSuggestions }) {
  const t = useT();
  return (
    <SuggestionList suggestions={suggestions} label={t('room.suggest.emoji')} keyOf={(e) => e.emoji}>
      {(e) => (
        <>
          <span className="w-6 text-center text-lg leading-none">{e.emoji}</span>
          <span className="min-w-0 flex-1 truncate font-medium">:{e.shortcode}:</span>
        </>
      )}
    </SuggestionList>
  );
}
