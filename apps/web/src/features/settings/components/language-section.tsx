import { LOCALE_NAMES, LOCALES, type Locale, type SettingsResponse } from '@parley/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Card, CardHeader } from '../../../components/ui/card';
import { inputClasses } from '../../../components/ui/text-field';
import { api } from '../../../lib/http/api-client';
import { browserLocale, chooseLanguage, useT } from '../../../lib/i18n/i18n';
import { settingsQueryKey } from '../../../lib/queries/settings-query';
import { toast } from '../../../lib/ui/toast';

const BROWSER = 'browser';

/** Settings → Language: one of Parley's languages, or the browser's; saved in the account and shown at once. */
export function LanguageSection({ settings }: { settings: SettingsResponse }) {
  const t = useT();
  const id = useId();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const current = settings.language ?? BROWSER;

  const choose = async (value: string) => {
    const language = value === BROWSER ? null : (value as Locale);
    setSaving(true);
    try {
      const saved = await api.put<SettingsResponse>('/users/profile/settings/', { language });
      queryClient.setQueryData(settingsQueryKey, saved);
      await chooseLanguage(language);
      toast.success(t('settings.language.saved'));
    } catch {
      toast.error(t('settings.language.failed'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card>
      <CardHeader title={t('settings.language.title')} description={t('settings.language.description')} />
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-900 dark:text-slate-100">
        {t('settings.language.label')}
      </label>
      <select
        id={id}
        value={current}
        disabled={saving}
        onChange={(event) => void choose(event.target.value)}
        className={inputClasses(false)}
      >
        <option value={BROWSER}>
          {t('settings.language.browser', { language: LOCALE_NAMES[browserLocale()] })}
        </option>
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale} translate="no">
            {LOCALE_NAMES[locale]}
          </option>
        ))}
      </select>
    </Card>
  );
}
