import { MessageCircleOff, RefreshCw, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { useT } from '../lib/i18n/i18n';
import { Button, buttonClasses } from './ui/button';

// The two ways a chat can fail to load (SPEC §2, Chat room: 'Chat not found' and the error screen), shared by
// the room and the group and private chat settings.

export function ChatGone() {
  const t = useT();
  return (
    <div className="m-auto flex max-w-sm flex-col items-center px-4 py-16 text-center">
      <MessageCircleOff aria-hidden="true" className="mb-3 size-10 text-slate-400 dark:text-slate-400" />
      <h1 className="text-lg font-semibold text-slate-900 dark:text-slate-100">
        {t('general.chat.notFound')}
      </h1>
      <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t('general.chat.notFoundHint')}</p>
      <Link to="/chats" className={buttonClasses('secondary', 'md', 'mt-5')}>
        {t('general.chat.backToChats')}
      </Link>
    </div>
  );
}

export function ChatLoadFailed({ onRetry, busy }: { onRetry: () => void; busy: boolean }) {
  const t = useT();
  return (
    <div role="alert" className="m-auto flex max-w-sm flex-col items-center px-4 py-16 text-center">
      <TriangleAlert aria-hidden="true" className="mb-3 size-10 text-amber-500" />
      <p className="font-medium text-slate-900 dark:text-slate-100">{t('general.chat.loadFailed')}</p>
      <div className="mt-5 flex gap-2">
        <Button onClick={onRetry} loading={busy}>
          {!busy && <RefreshCw aria-hidden="true" className="size-4" />}
          {t('general.chat.tryAgain')}
        </Button>
        <Link to="/chats" className={buttonClasses('secondary')}>
          {t('general.chat.backToChats')}
        </Link>
      </div>
    </div>
  );
}
