import { MessageSquareReply, RefreshCw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Page } from '../../../components/page';
import { Button } from '../../../components/ui/button';
import { LoadingState } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n/i18n';
import { useFollowedThreads } from '../api/get-followed-threads';
import { ThreadRow } from './thread-row';

/**
 * 'Threads' (/threads): the threads the reader follows (they started one, replied in it, or chose Follow),
 * newest activity first, with their unread replies; 'Load more' brings the next page.
 */
export function ThreadsPage() {
  const t = useT();
  const threads = useFollowedThreads();
  const items = threads.data?.pages.flatMap((p) => p.results) ?? [];
  // After 'Load more', the focus goes to the first thread it brought (the button may be gone).
  const list = useRef<HTMLUListElement>(null);
  const [focusAt, setFocusAt] = useState<number | null>(null);
  useEffect(() => {
    if (focusAt === null) return;
    const row = list.current?.querySelectorAll<HTMLElement>('a')[focusAt];
    row?.focus();
    if (row || threads.isFetchNextPageError) setFocusAt(null);
  }, [focusAt, items.length, threads.isFetchNextPageError]);

  return (
    <Page title={t('nav.threads')} description={t('browse.threads.description')}>
      <section
        aria-label={t('browse.threads.label')}
        className="rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
      >
        {threads.isPending ? (
          <LoadingState label={t('browse.threads.loading')} />
        ) : threads.isError && items.length === 0 ? (
          <div role="alert" className="flex flex-col items-center px-4 py-14 text-center">
            <p className="text-sm font-medium text-red-700 dark:text-red-300">
              {t('browse.threads.loadFailed')}
            </p>
            <Button
              variant="secondary"
              className="mt-4"
              onClick={() => void threads.refetch()}
              loading={threads.isFetching}
            >
              <RefreshCw aria-hidden="true" className="size-4" />
              {t('settings.tryAgain')}
            </Button>
          </div>
        ) : items.length === 0 ? (
          <div className="flex flex-col items-center px-4 py-14 text-center">
            <span className="mb-3 inline-flex size-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-200">
              <MessageSquareReply aria-hidden="true" className="size-6" />
            </span>
            <p className="font-semibold text-slate-900 dark:text-slate-100">{t('browse.threads.empty')}</p>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('browse.threads.emptyHint')}</p>
          </div>
        ) : (
          <ul ref={list} className="divide-y divide-slate-100 dark:divide-slate-800">
            {items.map((thread) => (
              <ThreadRow key={`${thread.chat_id}:${thread.root.id}`} thread={thread} />
            ))}
          </ul>
        )}
      </section>
      {threads.hasNextPage && items.length > 0 && (
        <div className="flex flex-col items-center gap-2">
          {threads.isFetchNextPageError && (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
              {t('browse.threads.loadMoreFailed')}
            </p>
          )}
          <Button
            variant="secondary"
            loading={threads.isFetchingNextPage}
            onClick={() => {
              setFocusAt(items.length);
              void threads.fetchNextPage();
            }}
          >
            {t('browse.loadMore')}
          </Button>
        </div>
      )}
    </Page>
  );
}
