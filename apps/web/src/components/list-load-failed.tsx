import { RefreshCw } from 'lucide-react';
import { useT } from '../lib/i18n/i18n';
import { Button } from './ui/button';

/** A list that could not be loaded: the reason, said as an alert, and 'Try again'. */
export function ListLoadFailed({
  text,
  onRetry,
  busy,
}: {
  text: string;
  onRetry: () => void;
  busy: boolean;
}) {
  const t = useT();
  return (
    <div role="alert" className="flex flex-col items-center px-4 py-14 text-center">
      <p className="text-sm font-medium text-red-700 dark:text-red-300">{text}</p>
      <Button variant="secondary" className="mt-4" onClick={onRetry} loading={busy}>
        <RefreshCw aria-hidden="true" className="size-4" />
        {t('settings.tryAgain')}
      </Button>
    </div>
  );
}
