import { Bot, Info, X } from 'lucide-react';
import { useT } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import type { CommandSuggestions, EphemeralNote } from '../hooks/use-slash-commands';
import { SuggestionList } from './mention-list';
import '../lib/room-server-texts';

// The composer's slash commands: the list of commands while '/name' is typed, and the answers meant for this
// person alone ('Only visible to you', each dismissed on its own).

export function CommandList({ suggestions }: { suggestions: CommandSuggestions }) {
  const t = useT();
  return (
    <SuggestionList
      suggestions={suggestions}
      label={t('room.suggest.commands')}
      keyOf={(c) => `${c.bot?.id ?? 0}:${c.command}`}
    >
      {(c) => (
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline gap-2">
            <span className="font-semibold">{c.usage}</span>
            {c.bot && (
              <span
                translate="no"
                className="inline-flex items-center gap-1 truncate text-xs text-slate-600 dark:text-slate-300"
              >
                <Bot aria-hidden="true" className="size-3" />
                {c.bot.display_name}
              </span>
            )}
          </span>
          {c.description && (
            <span className="block truncate text-xs text-slate-600 dark:text-slate-300">{c.description}</span>
          )}
        </span>
      )}
    </SuggestionList>
  );
}

export function EphemeralNotes({
  notes,
  onDismiss,
}: {
  notes: EphemeralNote[];
  onDismiss: (id: number) => void;
}) {
  const t = useT();
  return (
    <div role="status" aria-live="polite" className="empty:hidden">
      {notes.length > 0 && (
        <ul className="space-y-1 border-b border-slate-200 bg-slate-50 px-2 py-2 sm:px-3 dark:border-slate-800 dark:bg-slate-900">
          {notes.map((note) => (
            <li
              key={note.id}
              data-testid="ephemeral-note"
              className="flex items-start gap-2 rounded-lg border border-brand-200 bg-white px-3 py-2 text-sm text-slate-800 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
            >
              <Info
                aria-hidden="true"
                className="mt-0.5 size-4 shrink-0 text-brand-700 dark:text-brand-300"
              />
              <div className="min-w-0 flex-1">
                <p className="text-xs font-medium text-slate-600 dark:text-slate-300">
                  {t('room.commands.onlyYou')} · <span translate="no">/{note.command}</span>
                </p>
                <NoteText text={note.text} />
              </div>
              <button
                type="button"
                onClick={() => onDismiss(note.id)}
                aria-label={t('room.dismiss')}
                title={t('room.dismiss')}
                className="rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100"
              >
                <X aria-hidden="true" className="size-4" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A command's answer: Parley's own words in the reader's language; a bot's (or an unknown text) as written. */
function NoteText({ text }: { text: string }) {
  const shown = localText(text);
  return (
    <p translate={shown === text ? 'no' : undefined} className="break-words whitespace-pre-wrap">
      {shown}
    </p>
  );
}
