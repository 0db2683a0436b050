import { Bookmark } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { ListLoadFailed } from '../../../components/list-load-failed';
import { LoadMore } from '../../../components/load-more';
import { Page } from '../../../components/page';
import { LoadingState } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n/i18n';
import { useSavedMessages } from '../api/get-saved';
import { SavedRow } from './saved-row';

/**
 * 'Saved messages' (/saved): the messages the reader saved from a message's menu, newest saved first, each
 * linking to its place in its chat; 'Load more' brings older ones. Messages deleted for everyone and those of
 * chats the reader left are not listed.
 */
export function SavedPage() {
  const t = useT();
  const saved = useSavedMessages();
  const items = saved.data?.pages.flatMap((p) => p.results) ?? [];
  // Once the list has changed, the focus goes to the first message 'Load more' brought, or after an unsave to
  // the message that took the unsaved one's place (the last one when it was last).
  const list = useRef<HTMLUListElement>(null);
  const [focusAt, setFocusAt] = useState<{ index: number; count: number } | null>(null);
  useEffect(() => {
    if (focusAt === null) return;
    if (saved.isFetchNextPageError) return setFocusAt(null);
    if (items.length === focusAt.count) return;
    const links = list.current?.querySelectorAll<HTMLElement>('a') ?? [];
    links[Math.min(focusAt.index, links.length - 1)]?.focus();
    setFocusAt(null);
  }, [focusAt, items.length, saved.isFetchNextPageError]);

  return (
    <Page title={t('browse.saved.title')} description={t('browse.saved.description')}>
      <section
        aria-label={t('browse.saved.title')}
        className="rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
      >
        {saved.isPending ? (
          <LoadingState label={t('browse.saved.loading')} />
        ) : saved.isError && items.length === 0 ? (
          <ListLoadFailed
            text={t('browse.saved.loadFailed')}
            onRetry={() => void saved.refetch()}
            busy={saved.isFetching}
          />
        ) : items.length === 0 ? (
          <div className="flex flex-col items-center px-4 py-14 text-center">
            <span className="mb-3 inline-flex size-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-200">
              <Bookmark aria-hidden="true" className="size-6" />
            </span>
            <p className="font-semibold text-slate-900 dark:text-slate-100">{t('browse.saved.empty')}</p>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('browse.saved.emptyHint')}</p>
          </div>
        ) : (
          <ul ref={list} className="divide-y divide-slate-100 dark:divide-slate-800">
            {items.map((entry, i) => (
              <SavedRow
                key={entry.message.id}
                entry={entry}
                onUnsaved={() => setFocusAt({ index: i, count: items.length })}
              />
            ))}
          </ul>
        )}
      </section>
      {saved.hasNextPage && items.length > 0 && (
        <LoadMore
          failed={saved.isFetchNextPageError}
          failedText={t('browse.saved.loadMoreFailed')}
          loading={saved.isFetchingNextPage}
          onLoad={() => {
            setFocusAt({ index: items.length, count: items.length });
            void saved.fetchNextPage();
          }}
        />
      )}
    </Page>
  );
}
