import { type ChatMember, displayNameOf, type ProfileListItem } from '@parley/protocol';
import { UserPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Avatar } from '../../../components/avatar';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n/i18n';
import { SLOT, Slotted } from '../../../lib/i18n/slotted';
import { usePeopleSearch } from '../../../lib/queries/people-search';
import { useDebouncedValue } from '../../../lib/ui/use-debounced-value';
import { memberCandidates } from '../api/member-candidates';

/** A username someone might type in full (a hidden profile is not listed, but can still be added by name). */
const USERNAME = /^@?[\w.+-]{3,150}$/;
const DEBOUNCE_MS = 200;

/** 'Add members': the people search (names and usernames, by word start) suggests whom to add; the admin's only. */
export function AddMembers({
  members,
  adding,
  onAdd,
}: {
  members: ChatMember[];
  /** The username or id being added, while the call runs. */
  adding: string | number | null;
  onAdd: (target: { key: string | number; name: string }) => void;
}) {
  const t = useT();
  const [query, setQuery] = useState('');
  const settled = useDebouncedValue(query.trim().replace(/^@/, ''), DEBOUNCE_MS);
  const people = usePeopleSearch(settled);
  const memberIds = useMemo(
    () => new Set(members.map((m) => m.id).filter((id): id is number => id !== null)),
    [members],
  );
  const memberNames = useMemo(() => new Set(members.map((m) => m.username.toLowerCase())), [members]);
  const typed = query.trim().replace(/^@/, '');
  // Answers for an earlier text (kept while the next loads) are not offered as matches for this one.
  const current = settled === typed && (typed === '' || !people.isPlaceholderData);
  const found = useMemo(
    () => (current ? memberCandidates(people.data ?? [], memberIds) : []),
    [current, people.data, memberIds],
  );
  const offerTyped =
    USERNAME.test(query.trim()) &&
    !memberNames.has(typed.toLowerCase()) &&
    !found.some((p) => p.username.toLowerCase() === typed.toLowerCase());

  const add = (person: ProfileListItem) => {
    onAdd({ key: person.username, name: displayNameOf(person) });
  };

  return (
    <div className="space-y-3">
      <TextField
        label={t('groups.add.label')}
        type="search"
        placeholder={t('groups.add.placeholder')}
        autoComplete="off"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') event.preventDefault();
        }}
      />
      {query.trim() && (
        <div aria-live="polite">
          {!current || people.isFetching ? (
            <p className="flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400">
              <Spinner size="sm" /> {t('groups.add.searching')}
            </p>
          ) : (
            <>
              {found.length === 0 && !offerTyped && (
                <p className="text-sm text-slate-500 dark:text-slate-400">{t('groups.add.none')}</p>
              )}
              <ul
                aria-label={t('groups.add.results')}
                className="divide-y divide-slate-100 dark:divide-slate-800"
              >
                {found.map((person) => {
                  const name = displayNameOf(person);
                  return (
                    <li key={person.id} className="flex items-center gap-3 py-2">
                      <Avatar src={person.avatar} name={name} size="md" />
                      <div className="min-w-0 flex-1">
                        <p
                          translate="no"
                          className="truncate text-sm font-medium text-slate-900 dark:text-slate-100"
                        >
                          {name}
                        </p>
                        <p className="truncate text-xs text-slate-500 dark:text-slate-400">
                          <span
                            dir="ltr"
                            translate="no"
                            className="inline-block max-w-full truncate align-bottom"
                          >
                            @{person.username}
                          </span>
                        </p>
                      </div>
                      <Button
                        size="sm"
                        aria-label={t('groups.add.addName', { name })}
                        loading={adding === person.username}
                        disabled={adding !== null && adding !== person.username}
                        onClick={() => {
                          add(person);
                          setQuery('');
                        }}
                      >
                        <UserPlus aria-hidden="true" className="size-4" />
                        {t('groups.add.add')}
                      </Button>
                    </li>
                  );
                })}
                {offerTyped && (
                  <li className="flex items-center gap-3 py-2">
                    <p className="min-w-0 flex-1 truncate text-sm text-slate-600 dark:text-slate-400">
                      <Slotted text={t('groups.add.byUsername', { username: SLOT })}>
                        <span
                          dir="ltr"
                          translate="no"
                          className="font-medium text-slate-900 dark:text-slate-100"
                        >
                          @{typed}
                        </span>
                      </Slotted>
                    </p>
                    <Button
                      size="sm"
                      variant="secondary"
                      aria-label={t('groups.add.addName', { name: `@${typed}` })}
                      loading={adding === typed}
                      disabled={adding !== null && adding !== typed}
                      onClick={() => {
                        onAdd({ key: typed, name: `@${typed}` });
                        setQuery('');
                      }}
                    >
                      <UserPlus aria-hidden="true" className="size-4" />
                      {t('groups.add.add')}
                    </Button>
                  </li>
                )}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}
