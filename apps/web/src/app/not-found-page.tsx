import { Compass } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '../components/ui/button';
import { useT } from '../lib/i18n/i18n';
import { usePageTitle } from '../lib/ui/document-title';

export function NotFoundPage() {
  const t = useT();
  usePageTitle(t('general.notFound.title'));
  return (
    <div className="mx-auto flex max-w-md flex-col items-center px-4 py-20 text-center">
      <span className="mb-4 inline-flex size-14 items-center justify-center rounded-2xl bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400">
        <Compass aria-hidden="true" className="size-7" />
      </span>
      <p className="text-sm font-semibold text-brand-600 dark:text-brand-300">404</p>
      <h1 className="mt-1 text-2xl font-semibold text-slate-900 dark:text-slate-100">
        {t('general.notFound.title')}
      </h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{t('general.notFound.text')}</p>
      <Link to="/" className={buttonClasses('primary', 'md', 'mt-6')}>
        {t('general.notFound.home')}
      </Link>
    </div>
  );
}
