import { BellRing } from 'lucide-react';
import { useId, useState } from 'react';
import { useMatch } from 'react-router';
import { Button } from '../../components/ui/button';
import { useT } from '../../lib/i18n/i18n';
import { requestNotificationPermission, useNotificationPermission } from '../../lib/notifications/permission';

const DISMISSED_KEY = 'notificationPromptDismissed';

const wasDismissed = () => {
  try {
    return window.localStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
};

/**
 * Offers browser notifications on the chat list while the browser has not been asked yet: the question goes to
 * the browser only when 'Turn on notifications' is clicked, never by itself. 'Not now' puts the offer away for this
 * browser; Settings' Push Notifications switch asks the same way. Only there: elsewhere it would cover a screen's
 * own controls (a room's composer, a form's buttons).
 */
export function NotificationPrompt() {
  const t = useT();
  const permission = useNotificationPermission();
  const [dismissed, setDismissed] = useState(wasDismissed);
  const [asking, setAsking] = useState(false);
  const atChatList = useMatch('/chats');
  const titleId = useId();
  if (permission !== 'default' || dismissed || !atChatList) return null;

  const dismiss = () => {
    try {
      window.localStorage.setItem(DISMISSED_KEY, '1');
    } catch {
      // Private mode without storage: put away for this visit only.
    }
    setDismissed(true);
  };
  const turnOn = () => {
    setAsking(true);
    void requestNotificationPermission().finally(() => setAsking(false));
  };

  return (
    <section
      aria-labelledby={titleId}
      className="fixed inset-x-4 bottom-4 z-40 mx-auto max-w-sm rounded-2xl border border-slate-200 bg-white p-4 shadow-lg sm:end-6 sm:start-auto sm:mx-0 dark:border-slate-700 dark:bg-slate-900"
    >
      <div className="flex items-start gap-3">
        <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-200">
          <BellRing aria-hidden="true" className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="text-sm font-semibold text-slate-900 dark:text-slate-100">
            {t('general.notify.title')}
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('general.notify.text')}</p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button size="sm" onClick={turnOn} loading={asking}>
              {t('general.notify.turnOn')}
            </Button>
            <Button size="sm" variant="ghost" onClick={dismiss}>
              {t('general.notify.notNow')}
            </Button>
          </div>
        </div>
      </div>
    </section>
  );
}
