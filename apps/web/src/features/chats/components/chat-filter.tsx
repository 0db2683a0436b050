import { Search, X } from 'lucide-react';
import { inputClasses } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n/i18n';
import { cn } from '../../../lib/ui/cn';

/** The chat list's filter: narrows the list by name as the person types (the list itself is already loaded). */
export function ChatFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const t = useT();
  return (
    <div className="relative mb-3">
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 start-3 size-4 -translate-y-1/2 text-slate-400 dark:text-slate-400"
      />
      <input
        type="search"
        aria-label={t('chats.filter')}
        placeholder={t('chats.filter')}
        autoComplete="off"
        spellCheck={false}
        maxLength={100}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && value) {
            event.preventDefault();
            onChange('');
          }
        }}
        className={cn(inputClasses(false), 'pe-10 ps-9 [&::-webkit-search-cancel-button]:hidden')}
      />
      {value && (
        <button
          type="button"
          aria-label={t('chats.clearFilter')}
          onClick={() => onChange('')}
          className="absolute top-1/2 end-1.5 inline-flex size-7 -translate-y-1/2 items-center justify-center rounded-md text-slate-500 dark:text-slate-400 hover:bg-slate-100 dark:hover:bg-slate-800"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      )}
    </div>
  );
}
