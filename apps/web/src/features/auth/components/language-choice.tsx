import { useLingui } from '@lingui/react';
import { isLocale, LOCALE_NAMES, LOCALES } from '@parley/protocol';
import { Languages } from 'lucide-react';
import { useId } from 'react';
import { chooseLanguage, useT } from '../../../lib/i18n/i18n';

/**
 * The sign-in pages' Language choice, at the foot of the card: shown at once and kept in this browser (the same
 * as Settings' choice); once signed in, the account's own setting wins as it does everywhere.
 */
export function LanguageChoice() {
  const t = useT();
  const id = useId();
  const { i18n } = useLingui();
  return (
    <div className="mt-4 flex items-center justify-center gap-2 text-sm text-slate-600 dark:text-slate-400">
      <Languages aria-hidden="true" className="size-4" />
      <label htmlFor={id}>{t('auth.language')}</label>
      <select
        id={id}
        value={i18n.locale}
        onChange={(event) => {
          if (isLocale(event.target.value)) void chooseLanguage(event.target.value);
        }}
        className="h-9 rounded-lg border border-slate-300 dark:border-slate-700 bg-white dark:bg-slate-900 px-2 text-sm text-slate-800 dark:text-slate-200"
      >
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {LOCALE_NAMES[locale]}
          </option>
        ))}
      </select>
    </div>
  );
}
