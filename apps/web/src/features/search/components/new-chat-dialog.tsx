import { AlertCircle, Search } from 'lucide-react';
import { useCallback, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n/i18n';
import { usePeopleSearch } from '../../../lib/queries/people-search';
import { useStartChat } from '../../../lib/queries/start-chat';
import { useAuth } from '../../../lib/session/auth-store';
import { useDebouncedValue } from '../../../lib/ui/use-debounced-value';
import { useListbox } from '../hooks/use-listbox';
import { type PersonOption, personOption } from '../lib/result-model';
import { DialogFrame } from './dialog-frame';
import { NoResults, OptionRow, SearchOptionContent } from './search-option';

const DEBOUNCE_MS = 200;

/**
 * 'New Chat': find a person by name or username and start (or reopen) the private chat with them, as a
 * profile's Message button does. The home page's grid of everyone stays a link away.
 */
export function NewChatDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const ids = useId();
  const titleId = `${ids}-title`;
  const listboxId = `${ids}-listbox`;
  const optionId = useCallback((key: string) => `${ids}-option-${key}`, [ids]);
  const [query, setQuery] = useState('');
  const typed = query.trim();
  const settled = useDebouncedValue(typed, DEBOUNCE_MS);
  const people = usePeopleSearch(settled);
  const ownId = useAuth((s) => s.user?.id);
  const startChat = useStartChat();

  const options = useMemo(
    () =>
      settled === ''
        ? []
        : (people.data ?? []).filter((p) => p.id !== ownId).map((person) => personOption(person, settled)),
    [people.data, settled, ownId],
  );
  const pick = (option: PersonOption) => {
    if (startChat.isPending) return;
    startChat.mutate(option.person.username, { onSuccess: onClose });
  };
  const listbox = useListbox(options, pick, optionId, listboxId, query.trim());
  const loading = typed !== '' && (typed !== settled || people.isFetching || people.isPlaceholderData);
  const now = new Date();

  return (
    <DialogFrame labelledBy={titleId} onClose={onClose}>
      <div className="px-4 pt-4">
        <h2 id={titleId} className="text-lg font-semibold">
          {t('chats.newChat')}
        </h2>
        <p className="mt-0.5 text-sm text-slate-500 dark:text-slate-400">{t('browse.newChat.hint')}</p>
      </div>
      <div className="mx-4 mt-3 flex items-center gap-2 rounded-lg border border-slate-300 dark:border-slate-700 px-3 focus-within:outline-2 focus-within:outline-brand-600">
        {loading || startChat.isPending ? (
          <Spinner size="sm" className="shrink-0 text-brand-600 dark:text-brand-300" />
        ) : (
          <Search aria-hidden="true" className="size-4 shrink-0 text-slate-400 dark:text-slate-400" />
        )}
        <input
          {...listbox.inputProps}
          aria-label={t('browse.newChat.searchPeople')}
          autoFocus
          placeholder={t('browse.newChat.placeholder')}
          value={query}
          disabled={startChat.isPending}
          onChange={(event) => setQuery(event.target.value)}
          className="h-10 min-w-0 flex-1 bg-transparent text-sm text-slate-900 dark:text-slate-100 placeholder:text-slate-400 dark:placeholder:text-slate-500 focus-visible:outline-none"
        />
      </div>

      <div className="min-h-0 flex-1 overflow-y-auto p-2">
        <div id={listboxId} role="listbox" aria-label={t('browse.search.people')} aria-busy={loading}>
          {options.map((option) => (
            <OptionRow
              key={option.key}
              id={optionId(option.key)}
              active={option.key === listbox.activeKey}
              onHover={() => listbox.setActiveKey(option.key)}
              onPick={() => pick(option)}
            >
              <SearchOptionContent option={option} ownId={ownId} loadingMore={false} now={now} />
            </OptionRow>
          ))}
        </div>
        {people.isError && (
          <p
            role="alert"
            className="flex items-center gap-2 px-3 py-4 text-sm text-red-700 dark:text-red-300"
          >
            <AlertCircle aria-hidden="true" className="size-4 shrink-0" />
            {t('browse.search.failed')}
          </p>
        )}
        <p
          role="status"
          className="px-3 py-3 text-center text-sm break-words text-slate-500 dark:text-slate-400"
        >
          {startChat.isPending ? (
            t('profile.startingChat')
          ) : typed === '' ? (
            ''
          ) : loading && options.length === 0 ? (
            t('browse.search.searching')
          ) : !loading && !people.isError && options.length === 0 ? (
            <NoResults typed={typed} />
          ) : (
            ''
          )}
        </p>
      </div>

      <div className="flex items-center justify-between gap-3 border-t border-slate-200 dark:border-slate-800 px-4 py-3 text-sm">
        <Link
          to="/"
          onClick={onClose}
          className="font-medium text-brand-700 dark:text-brand-200 hover:underline"
        >
          {t('browse.newChat.browseEveryone')}
        </Link>
        <button
          type="button"
          onClick={onClose}
          className="rounded-lg px-3 py-1.5 font-medium text-slate-600 dark:text-slate-400 hover:bg-slate-100 dark:hover:bg-slate-800"
        >
          {t('room.msg.cancel')}
        </button>
      </div>
    </DialogFrame>
  );
}
