import { useT } from '../lib/i18n/i18n';
import { Button } from './ui/button';

/** 'Load more' under a paged list, with the alert of a page that failed to come above it. */
export function LoadMore({
  failed,
  failedText,
  loading,
  onLoad,
}: {
  failed: boolean;
  failedText: string;
  loading: boolean;
  onLoad: () => void;
}) {
  const t = useT();
  return (
    <div className="mt-4 flex flex-col items-center gap-2">
      {failed && (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
          {failedText}
        </p>
      )}
      <Button variant="secondary" loading={loading} onClick={onLoad}>
        {t('browse.loadMore')}
      </Button>
    </div>
  );
}
