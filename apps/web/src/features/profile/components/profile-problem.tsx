import { ArrowLeft, CircleAlert, Lock, RefreshCw, UserX } from 'lucide-react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n/i18n';
import { cn } from '../../../lib/ui/cn';
import { usePageTitle } from '../../../lib/ui/document-title';

const ICONS = { private: Lock, missing: UserX, error: CircleAlert } as const;

/**
 * A profile that cannot be shown: its reason as the heading, with Go Back (to the previous page, or home
 * when the profile was opened directly) and, for a failed load, a retry.
 */
export function ProfileProblem({
  kind,
  title,
  description,
  onRetry,
  retrying = false,
  retryLabel,
  children,
}: {
  kind: keyof typeof ICONS;
  title: string;
  description?: ReactNode;
  onRetry?: () => void;
  retrying?: boolean;
  retryLabel?: string;
  children?: ReactNode;
}) {
  const t = useT();
  usePageTitle(title);
  const navigate = useNavigate();
  const Icon = ICONS[kind];
  // Back where the visitor came from, even across a full page load; home when the tab has no history.
  const goBack = () => void (window.history.length > 1 ? navigate(-1) : navigate('/'));
  return (
    <div className="mx-auto flex w-full max-w-md flex-col items-center px-4 py-16 text-center sm:py-24">
      <span
        className={cn(
          'mb-4 inline-flex size-14 items-center justify-center rounded-2xl',
          kind === 'error'
            ? 'bg-red-50 dark:bg-red-950/40 text-red-600 dark:text-red-400'
            : 'bg-slate-100 dark:bg-slate-800 text-slate-500 dark:text-slate-400',
        )}
      >
        <Icon aria-hidden="true" className="size-7" />
      </span>
      <div role={kind === 'error' ? 'alert' : undefined}>
        <h1 className="text-2xl font-semibold text-slate-900 dark:text-slate-100">{title}</h1>
        {description && <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">{description}</p>}
      </div>
      {children}
      <div className="mt-6 flex flex-col gap-2 sm:flex-row">
        <Button variant="secondary" onClick={goBack}>
          <ArrowLeft aria-hidden="true" className="size-4 rtl:-scale-x-100" />
          {t('profile.goBack')}
        </Button>
        {onRetry && (
          <Button onClick={onRetry} loading={retrying}>
            {!retrying && <RefreshCw aria-hidden="true" className="size-4" />}
            {retryLabel ?? t('profile.tryAgain')}
          </Button>
        )}
      </div>
    </div>
  );
}
