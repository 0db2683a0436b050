import { ArrowUpRight, Briefcase, Sparkles } from 'lucide-react';
import { useT } from '../../../lib/i18n/i18n';
import { usePageTitle } from '../../../lib/ui/document-title';
import { BRAND } from './brand';
import { SiteFooter } from './site-footer';
import { LinkedInIcon } from './social-icons';

/**
 * /coming-soon: the freelancing marketplace's 'Coming soon' page, a different brand from Parley. It stands
 * outside the app's frame (no Parley header) and is the only page with a footer.
 */
export function LandingPage() {
  const t = useT();
  const brand = t('general.landing.brand');
  usePageTitle(t('general.landing.title', { brand }), { raw: true });
  return (
    <div className="flex min-h-dvh flex-col bg-white dark:bg-slate-900">
      <header className="border-b border-slate-100 dark:border-slate-800">
        <div className="mx-auto flex h-16 max-w-6xl items-center px-4 sm:px-6">
          <span className="inline-flex items-center gap-2 text-lg font-semibold tracking-tight text-slate-900 dark:text-slate-100">
            <span
              aria-hidden="true"
              className="inline-flex size-8 items-center justify-center rounded-lg bg-emerald-500 text-white"
            >
              <Briefcase className="size-4.5" />
            </span>
            <span translate="no">{brand}</span>
          </span>
        </div>
      </header>

      <main
        id="main"
        className="relative flex flex-1 items-center overflow-hidden bg-linear-to-b from-emerald-50/70 via-white to-white dark:from-emerald-950/40 dark:via-slate-900 dark:to-slate-900"
      >
        <div className="mx-auto w-full max-w-3xl px-4 py-20 text-center sm:px-6 sm:py-28">
          <p className="inline-flex items-center gap-1.5 rounded-full bg-emerald-100 dark:bg-emerald-400/15 px-3 py-1 text-sm font-medium text-emerald-800 dark:text-emerald-200">
            <Sparkles aria-hidden="true" className="size-4" />
            {t('general.landing.tagline')}
          </p>
          <h1 className="mt-6 text-4xl font-semibold tracking-tight text-balance text-slate-900 dark:text-slate-100 sm:text-6xl">
            {t('general.landing.comingSoon')}
          </h1>
          <p className="mx-auto mt-5 max-w-xl text-base text-balance text-slate-600 dark:text-slate-400 sm:text-lg">
            {t('general.landing.lead')}
          </p>
          <a
            href={BRAND.professionalNetworkUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="mt-8 inline-flex h-12 items-center gap-2 rounded-xl bg-slate-900 px-6 text-base font-medium text-white shadow-sm transition-colors hover:bg-slate-800 dark:bg-white dark:text-slate-900 dark:hover:bg-slate-200"
          >
            <LinkedInIcon className="size-5" />
            {t('general.landing.followLinkedIn')}
            <ArrowUpRight aria-hidden="true" className="size-4 opacity-70" />
            <span className="sr-only">{t('general.landing.newTab')}</span>
          </a>
        </div>
      </main>

      <SiteFooter />
    </div>
  );
}
