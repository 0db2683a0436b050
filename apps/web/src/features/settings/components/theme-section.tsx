import { Monitor, Moon, Sun } from 'lucide-react';
import { Card, CardHeader } from '../../../components/ui/card';
import { type MessageId, useT } from '../../../lib/i18n/i18n';
import { cn } from '../../../lib/ui/cn';
import { setThemeChoice, type ThemeChoice, useThemeChoice } from '../../../lib/ui/theme';

const OPTIONS: Array<{ value: ThemeChoice; label: MessageId; icon: typeof Sun }> = [
  { value: 'system', label: 'settings.theme.system', icon: Monitor },
  { value: 'light', label: 'settings.theme.light', icon: Sun },
  { value: 'dark', label: 'settings.theme.dark', icon: Moon },
];

/** Appearance: System (the device's setting), Light or Dark, kept in this browser and applied at once. */
export function ThemeSection() {
  const t = useT();
  const choice = useThemeChoice();
  return (
    <Card>
      <CardHeader
        id="theme-heading"
        title={t('settings.theme.title')}
        description={t('settings.theme.description')}
      />
      <div role="radiogroup" aria-labelledby="theme-heading" className="mt-4 grid grid-cols-3 gap-2">
        {OPTIONS.map(({ value, label, icon: Icon }) => {
          const selected = choice === value;
          return (
            <label
              key={value}
              className={cn(
                'flex cursor-pointer flex-col items-center gap-1.5 rounded-xl border px-3 py-3 text-sm font-medium transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600',
                selected
                  ? 'border-brand-600 bg-brand-50 text-brand-700 dark:border-brand-300 dark:bg-brand-500/15 dark:text-brand-200'
                  : 'border-slate-300 text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800',
              )}
            >
              <input
                type="radio"
                name="theme"
                value={value}
                checked={selected}
                onChange={() => setThemeChoice(value)}
                className="sr-only"
              />
              <Icon aria-hidden="true" className="size-5" />
              {t(label)}
            </label>
          );
        })}
      </div>
    </Card>
  );
}
