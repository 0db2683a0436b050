import { TriangleAlert } from 'lucide-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useT } from '../lib/i18n/i18n';
import { NotFoundPage } from './not-found-page';

/** Shown when a screen throws or its code cannot load (e.g. after a deploy replaced the chunks). */
export function RouteError() {
  const t = useT();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center px-4 py-20 text-center">
      <TriangleAlert aria-hidden="true" className="mb-4 size-10 text-amber-500" />
      <h1 className="text-2xl font-semibold text-slate-900 dark:text-slate-100">
        {t('general.error.title')}
      </h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{t('general.error.text')}</p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="mt-6 inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-medium text-white hover:bg-brand-700"
      >
        {t('general.error.reload')}
      </button>
    </div>
  );
}
