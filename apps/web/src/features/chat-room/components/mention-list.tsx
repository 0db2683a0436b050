import { Avatar } from '../../../components/avatar';
import { cn } from '../../../lib/cn';
import type { MentionSuggestions } from '../hooks/use-mention-suggestions';

/** The members a typed @name may mean, above the composer; the textarea keeps the focus (aria-activedescendant). */
export function MentionList({ suggestions }: { suggestions: MentionSuggestions }) {
  if (!suggestions.open) return null;
  return (
    <div
      id={suggestions.listId}
      role="listbox"
      aria-label="Mention someone"
      className="absolute right-2 bottom-full left-2 z-20 mb-1 max-h-60 overflow-y-auto rounded-xl border border-slate-200 bg-white p-1 shadow-lg sm:right-auto sm:w-72"
    >
      {suggestions.candidates.map((c, i) => (
        <div
          key={c.id}
          id={suggestions.optionId(i)}
          role="option"
          tabIndex={-1}
          aria-selected={i === suggestions.active}
          // The textarea must keep the focus: pick on mousedown, before it would blur.
          onMouseDown={(event) => {
            event.preventDefault();
            suggestions.pick(c);
          }}
          className={cn(
            'flex cursor-pointer items-center gap-2 rounded-lg px-2 py-1.5 text-sm',
            i === suggestions.active ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-50',
          )}
        >
          <Avatar src={c.avatar} name={c.name} size="sm" tone="muted" />
          <span className="min-w-0 flex-1 truncate font-medium">{c.name}</span>
          <span className="truncate text-xs text-slate-500">@{c.username}</span>
        </div>
      ))}
    </div>
  );
}
