import type { ReactNode } from 'react';
import { Avatar } from '../../../components/avatar';
import { cn } from '../../../lib/ui/cn';
import type { MentionSuggestions } from '../hooks/use-mention-suggestions';
import type { ShortcodeSuggestions } from '../hooks/use-shortcode-suggestions';

// The lists of suggestions above the composer: members for a typed @name, emoji for a typed :name. The
// textarea keeps the focus and points at the active option (aria-activedescendant).

interface ListProps<T> {
  id: string;
  label: string;
  items: T[];
  active: number;
  optionId: (index: number) => string;
  keyOf: (item: T) => string | number;
  onPick: (item: T) => void;
  children: (item: T) => ReactNode;
}

function SuggestionList<T>({ id, label, items, active, optionId, keyOf, onPick, children }: ListProps<T>) {
  return (
    <div
      id={id}
      role="listbox"
      aria-label={label}
      className="absolute right-2 bottom-full left-2 z-20 mb-1 max-h-60 overflow-y-auto rounded-xl border border-slate-200 bg-white p-1 shadow-lg sm:right-auto sm:w-72 dark:border-slate-700 dark:bg-slate-900"
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
  if (!suggestions.open) return null;
  return (
    <SuggestionList
      id={suggestions.listId}
      label="Mention someone"
      items={suggestions.candidates}
      active={suggestions.active}
      optionId={suggestions.optionId}
      keyOf={(c) => c.id}
      onPick={suggestions.pick}
    >
      {(c) => (
        <>
          <Avatar src={c.avatar} name={c.name} size="sm" tone="muted" />
          <span className="min-w-0 flex-1 truncate font-medium">{c.name}</span>
          <span className="truncate text-xs text-slate-600 dark:text-slate-300">@{c.username}</span>
        </>
      )}
    </SuggestionList>
  );
}

export function ShortcodeList({ suggestions }: { suggestions: ShortcodeSuggestions }) {
  if (!suggestions.open) return null;
  return (
    <SuggestionList
      id={suggestions.listId}
      label="Emoji"
      items={suggestions.candidates}
      active={suggestions.active}
      optionId={suggestions.optionId}
      keyOf={(e) => e.emoji}
      onPick={suggestions.pick}
    >
      {(e) => (
        <>
          <span className="w-6 text-center text-lg leading-none">{e.emoji}</span>
          <span className="min-w-0 flex-1 truncate font-medium">:{e.shortcode}:</span>
        </>
      )}
    </SuggestionList>
  );
}
