import { ArrowLeft, Compass } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ListLoadFailed } from '../../../components/list-load-failed';
import { LoadMore } from '../../../components/load-more';
import { LoadingState } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n/i18n';
import { SLOT, Slotted } from '../../../lib/i18n/slotted';
import { usePageTitle } from '../../../lib/ui/document-title';
import { useDebouncedValue } from '../../../lib/ui/use-debounced-value';
import { useChannelDirectory } from '../api/get-channels';
import { directoryStatus } from '../lib/directory-texts';
import { ChannelRow } from './channel-row';

/** How long typing must pause before the directory is asked. */
const SEARCH_DELAY_MS = 300;

/**
 * 'Browse channels' (/channels): the public groups anyone signed in can find, most members first, searched by
 * the starts of the words of their names and descriptions; 'Load more' brings the next page.
 */
export function ChannelsPage() {
  const t = useT();
  usePageTitle(t('chats.browseChannels'));
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const directory = useChannelDirectory(q);
  const channels = directory.data?.pages.flatMap((p) => p.results) ?? [];
  // A page for searching: with a mouse or trackpad the cursor starts in the search box (on touch screens it
  // would pop the keyboard up over the list).
  const [finePointer] = useState(() => window.matchMedia('(pointer: fine)').matches);
  // After 'Load more', the focus goes to the first channel it brought (the button may be gone).
  const [focusAt, setFocusAt] = useState<number | null>(null);
  const rows = useRef<(HTMLAnchorElement | null)[]>([]);
  const failedMore = directory.isFetchNextPageError;
  useEffect(() => {
    if (focusAt === null) return;
    const row = rows.current[focusAt];
    if (row) row.focus();
    if (row || failedMore) setFocusAt(null);
  }, [focusAt, channels.length, failedMore]);

  const searching = text.trim() !== q || (directory.isFetching && !directory.isFetchingNextPage);
  const status = directory.isSuccess
    ? directoryStatus({ q, searching, count: channels.length, more: directory.hasNextPage })
    : '';

  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-6 sm:px-6 sm:py-10">
      <div className="mb-6 flex items-start gap-2">
        <Link
          to="/chats"
          aria-label={t('room.header.back')}
          title={t('room.header.back')}
          className="-ms-2 inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 lg:hidden dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
        >
          <ArrowLeft aria-hidden="true" className="size-5 rtl:-scale-x-100" />
        </Link>
        <div className="min-w-0">
          <h1 className="text-2xl leading-10 font-semibold tracking-tight text-slate-900 dark:text-slate-100">
            {t('chats.browseChannels')}
          </h1>
          <p className="text-sm text-slate-600 dark:text-slate-400">{t('groups.channels.description')}</p>
        </div>
      </div>

      <div className="mb-4">
        <TextField
          autoFocus={finePointer}
          label={t('groups.channels.search')}
          type="search"
          value={text}
          placeholder={t('groups.channels.searchPlaceholder')}
          maxLength={100}
          autoComplete="off"
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      <p role="status" className="sr-only">
        {status}
      </p>

      <section
        aria-label={t('groups.channels.list')}
        aria-busy={searching || undefined}
        className="rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
      >
        {directory.isPending ? (
          <LoadingState label={t('groups.channels.loading')} />
        ) : directory.isError && channels.length === 0 ? (
          <ListLoadFailed
            text={t('groups.channels.loadFailed')}
            onRetry={() => void directory.refetch()}
            busy={directory.isFetching}
          />
        ) : channels.length === 0 ? (
          <div className="flex flex-col items-center px-4 py-14 text-center">
            <span className="mb-3 inline-flex size-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-200">
              <Compass aria-hidden="true" className="size-6" />
            </span>
            {q ? (
              <p className="text-sm break-words text-slate-600 dark:text-slate-400">
                <Slotted text={t('groups.channels.noMatch', { q: SLOT })}>
                  <span translate="no">{q}</span>
                </Slotted>
              </p>
            ) : (
              <>
                <p className="font-semibold text-slate-900 dark:text-slate-100">
                  {t('groups.channels.none')}
                </p>
                <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                  {t('groups.channels.noneHint')}
                </p>
              </>
            )}
          </div>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {channels.map((channel, i) => (
              <ChannelRow
                key={channel.chat_id}
                channel={channel}
                ref={(el) => {
                  rows.current[i] = el;
                }}
              />
            ))}
          </ul>
        )}
      </section>

      {directory.hasNextPage && channels.length > 0 && (
        <LoadMore
          failed={failedMore}
          failedText={t('groups.channels.loadMoreFailed')}
          loading={directory.isFetchingNextPage}
          onLoad={() => {
            setFocusAt(channels.length);
            void directory.fetchNextPage();
          }}
        />
      )}
    </div>
  );
}
