import { AlertCircle, Search, X } from 'lucide-react';
import { type ReactNode, useCallback, useId, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { type MessageId, useT } from '../../../lib/i18n/i18n';
import { SLOT, Slotted } from '../../../lib/i18n/slotted';
import { useAuth } from '../../../lib/session/auth-store';
import { chatPath } from '../../../lib/text/chat-path';
import type { SearchScope } from '../../../lib/ui/search-dialogs';
import { useListbox } from '../hooks/use-listbox';
import { useSearchResults } from '../hooks/use-search-results';
import { flattenGroups, type SearchOption } from '../lib/result-model';
import { DialogFrame } from './dialog-frame';
import { ResultAudio } from './result-audio';
import { NoResults, OptionRow, SearchOptionContent } from './search-option';

/**
 * The app-wide search (header button, Ctrl/Cmd+K): people, chats and messages for what is typed, grouped, with
 * the matched words marked. Opened in a room, it starts scoped to that chat (a chip that can be removed).
 */
export function SearchDialog({
  scope: initialScope,
  onClose,
}: {
  scope: SearchScope | null;
  onClose: () => void;
}) {
  const t = useT();
  const ids = useId();
  const titleId = `${ids}-title`;
  const listboxId = `${ids}-listbox`;
  const optionId = useCallback((key: string) => `${ids}-option-${key}`, [ids]);
  const [query, setQuery] = useState('');
  const [scope, setScope] = useState(initialScope);
  const ownId = useAuth((s) => s.user?.id);
  const navigate = useNavigate();
  const search = useSearchResults(query, scope);
  const options = useMemo(() => flattenGroups(search.groups), [search.groups]);

  const pick = (option: SearchOption) => {
    if (option.kind === 'more') {
      if (!search.loadingMore) search.loadMore();
      return;
    }
    onClose();
    if (option.kind === 'person')
      void navigate(
        option.person.id === ownId ? '/profile' : `/user/${encodeURIComponent(option.person.username)}`,
      );
    else if (option.kind === 'chat') void navigate(chatPath(option.chat));
    else void navigate(`${chatPath(option.result.chat)}?message=${option.result.message.id}`);
  };
  const listbox = useListbox(options, pick, optionId, listboxId, `${scope?.chat_id ?? ''}|${query.trim()}`);

  const typed = query.trim();
  const now = new Date();
  const resultCount = options.filter((o) => o.kind !== 'more').length;
  const active = options.find((o) => o.key === listbox.activeKey);

  return (
    <DialogFrame labelledBy={titleId} onClose={onClose}>
      <h2 id={titleId} className="sr-only">
        {t('browse.search.title')}
      </h2>
      <div className="flex items-center gap-2 border-b border-slate-200 dark:border-slate-800 px-3">
        {search.loading ? (
          <Spinner size="sm" className="mx-0.5 shrink-0 text-brand-600 dark:text-brand-300" />
        ) : (
          <Search aria-hidden="true" className="size-5 shrink-0 text-slate-400 dark:text-slate-400" />
        )}
        {scope && (
          <span className="inline-flex max-w-[40%] shrink-0 items-center gap-1 rounded-full bg-brand-50 dark:bg-brand-500/15 py-0.5 pe-1 ps-2.5 text-xs font-medium text-brand-800 dark:text-brand-200">
            <span className="truncate">
              <Slotted text={t('browse.search.in', { name: SLOT })}>
                <span translate="no">{scope.name}</span>
              </Slotted>
            </span>
            <button
              type="button"
              aria-label={t('browse.search.everywhere', { name: scope.name })}
              onClick={() => setScope(null)}
              className="inline-flex size-5 items-center justify-center rounded-full hover:bg-brand-100 dark:hover:bg-brand-500/25"
            >
              <X aria-hidden="true" className="size-3.5" />
            </button>
          </span>
        )}
        <input
          {...listbox.inputProps}
          aria-label={scope ? t('browse.search.inChat', { name: scope.name }) : t('browse.search.label')}
          autoFocus
          enterKeyHint="search"
          placeholder={scope ? t('browse.search.inThisChat') : t('browse.search.label')}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            // Backspace in an empty box removes the chat chip: the search widens to everything.
            if (event.key === 'Backspace' && query === '' && scope) setScope(null);
            else listbox.inputProps.onKeyDown(event);
          }}
          className="h-14 min-w-0 flex-1 bg-transparent text-base text-slate-900 dark:text-slate-100 placeholder:text-slate-400 dark:placeholder:text-slate-500 focus-visible:outline-none"
        />
        <button
          type="button"
          onClick={onClose}
          aria-label={t('browse.search.close')}
          className="inline-flex shrink-0 items-center justify-center rounded-md p-1.5 text-slate-500 dark:text-slate-400 hover:bg-slate-100 dark:hover:bg-slate-800"
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      </div>

      <div className="min-h-0 flex-1 overflow-y-auto p-2">
        <div id={listboxId} role="listbox" aria-label={t('browse.search.results')} aria-busy={search.loading}>
          {search.groups.map((group) => (
            // biome-ignore lint/a11y/useSemanticElements: a listbox's groups are ARIA groups; a fieldset holds form controls.
            <div key={group.key} role="group" aria-labelledby={`${ids}-group-${group.key}`} className="mb-2">
              <div
                id={`${ids}-group-${group.key}`}
                aria-hidden="true"
                className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-slate-600 dark:text-slate-400 uppercase"
              >
                {t(group.label)}
              </div>
              {group.options.map((option) => (
                <OptionRow
                  key={option.key}
                  id={optionId(option.key)}
                  active={option.key === listbox.activeKey}
                  onHover={() => listbox.setActiveKey(option.key)}
                  onPick={() => pick(option)}
                >
                  <SearchOptionContent
                    option={option}
                    ownId={ownId}
                    loadingMore={search.loadingMore}
                    now={now}
                  />
                </OptionRow>
              ))}
            </div>
          ))}
        </div>

        {search.failed && (
          <div
            role="alert"
            className="flex flex-wrap items-center gap-3 px-3 py-4 text-sm text-red-700 dark:text-red-300"
          >
            <AlertCircle aria-hidden="true" className="size-4 shrink-0" />
            <span className="flex-1">{t('browse.search.failed')}</span>
            <Button size="sm" variant="secondary" onClick={search.retry}>
              {t('settings.tryAgain')}
            </Button>
          </div>
        )}
        {/* One live region: what the list shows when it is empty, else how many results it has. */}
        <div role="status" className={options.length > 0 || search.failed ? 'sr-only' : undefined}>
          {search.failed ? null : options.length > 0 ? (
            search.loading ? null : (
              t('browse.search.count', { count: resultCount })
            )
          ) : (
            <p className="px-3 py-8 text-center text-sm break-words text-slate-600 dark:text-slate-400">
              {typed === '' ? (
                scope ? (
                  <Slotted text={t('browse.search.typeInChat', { name: SLOT })}>
                    <span translate="no">{scope.name}</span>
                  </Slotted>
                ) : (
                  t('browse.search.type')
                )
              ) : search.loading ? (
                t('browse.search.searching')
              ) : (
                <NoResults typed={typed} />
              )}
            </p>
          )}
        </div>
      </div>

      {active?.kind === 'message' && <ResultAudio result={active.result} ownId={ownId} />}

      <div className="hidden items-center gap-4 border-t border-slate-200 dark:border-slate-800 px-4 py-2 text-xs text-slate-500 dark:text-slate-400 sm:flex">
        <KeyHint id="browse.search.keysMove">
          <kbd className="font-sans">↑</kbd> <kbd className="font-sans">↓</kbd>
        </KeyHint>
        <KeyHint id="browse.search.keysOpen">
          <kbd className="font-sans">{t('browse.search.keyEnter')}</kbd>
        </KeyHint>
        <KeyHint id="browse.search.keysClose">
          <kbd className="font-sans">{t('browse.search.keyEsc')}</kbd>
        </KeyHint>
      </div>
    </DialogFrame>
  );
}

/** A hint of the footer: its keys where the sentence puts them. */
function KeyHint({ id, children }: { id: MessageId; children: ReactNode }) {
  const t = useT();
  return (
    <span>
      <Slotted text={t(id, { keys: SLOT })}>{children}</Slotted>
    </span>
  );
}
