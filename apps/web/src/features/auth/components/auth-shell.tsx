import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Logo } from '../../../components/logo';
import { useT } from '../../../lib/i18n/i18n';
import { usePageTitle } from '../../../lib/ui/document-title';
import { LanguageChoice } from './language-choice';

/** The full-page frame of the auth screens: back button, logo, one card, and the Language choice below it. */
export function AuthShell({
  title,
  children,
  onBack,
}: {
  /** The document title. */
  title: string;
  children: ReactNode;
  onBack?: () => void;
}) {
  const t = useT();
  usePageTitle(title);
  const navigate = useNavigate();
  const goBack = () => {
    if (onBack) return onBack();
    // React Router numbers its history entries; with none before this one, go home instead of leaving the app.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) void navigate(-1);
    else void navigate('/');
  };
  return (
    <div className="flex flex-1 flex-col items-center bg-gradient-to-b from-brand-50 dark:from-slate-900 to-slate-50 dark:to-slate-950 px-4 py-6 sm:py-12">
      <div className="w-full max-w-md">
        <div className="mb-6 flex items-center justify-between">
          <button
            type="button"
            onClick={goBack}
            aria-label={t('auth.goBack')}
            className="inline-flex size-10 items-center justify-center rounded-full text-slate-600 dark:text-slate-400 transition-colors hover:bg-white dark:hover:bg-slate-800 hover:text-slate-900 dark:hover:text-white"
          >
            <ArrowLeft aria-hidden="true" className="size-5 rtl:-scale-x-100" />
          </button>
          <Logo />
          <span className="size-10" aria-hidden="true" />
        </div>
        <div className="rounded-2xl border border-slate-200 dark:border-slate-800 bg-white dark:bg-slate-900 p-6 shadow-sm sm:p-8">
          {children}
        </div>
        <LanguageChoice />
      </div>
    </div>
  );
}
