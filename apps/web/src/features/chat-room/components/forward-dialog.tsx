import { foldForSearch, MAX_FORWARD_TARGETS, type Message } from '@parley/protocol';
import { useId, useMemo, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { ModalDialog } from '../../../components/ui/modal-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { useMyChats } from '../../../lib/queries/chat-list-query';
import { toast } from '../../../lib/ui/toast';
import { forwardMessage } from '../api/message-actions';

/**
 * 'Forward': the person's chats, searchable by name, up to five ticked, and one button that sends a copy to
 * each. Loaded the first time a message is forwarded (message-dialogs.tsx), so the room's first JavaScript
 * stays small.
 */
export default function ForwardDialog({
  chatId,
  message,
  onClose,
}: {
  chatId: string;
  message: Message;
  onClose: () => void;
}) {
  const t = useT();
  const titleId = useId();
  const countId = useId();
  const chats = useMyChats();
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const shown = useMemo(() => {
    const q = foldForSearch(query.trim());
    return (chats.data ?? []).filter((c) => !q || foldForSearch(c.display_name).includes(q));
  }, [chats.data, query]);
  const full = chosen.length >= MAX_FORWARD_TARGETS;

  const toggle = (id: string, on: boolean) =>
    setChosen((now) => (on ? [...now, id] : now.filter((c) => c !== id)));

  const send = async () => {
    setBusy(true);
    try {
      await forwardMessage(chatId, message.id, chosen);
      toast.success(
        chosen.length === 1 ? t('room.msg.forwarded') : t('room.forward.done', { count: chosen.length }),
      );
      onClose();
    } catch (error) {
      toast.error(serverErrorOr(error, t('room.forward.failed')));
      setBusy(false);
    }
  };

  return (
    <ModalDialog
      labelledBy={titleId}
      describedBy={countId}
      onClose={onClose}
      className="w-[calc(100%-2rem)] max-w-md"
    >
      <div className="p-6">
        <h2 id={titleId} className="text-lg font-semibold">
          {t('room.forward.title')}
        </h2>
        <TextField
          className="mt-3"
          label={t('room.forward.search')}
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          autoFocus
        />
        <p id={countId} aria-live="polite" className="mt-2 text-xs text-slate-500 dark:text-slate-400">
          {t('room.forward.chosen', { count: chosen.length, max: MAX_FORWARD_TARGETS })}
        </p>
        {chats.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner className="text-brand-600 dark:text-brand-300" />
          </div>
        ) : chats.isError ? (
          <p role="alert" className="mt-3 text-sm text-red-600 dark:text-red-400">
            {t('room.forward.loadFailed')}
          </p>
        ) : shown.length === 0 ? (
          <p className="mt-3 text-sm text-slate-500 dark:text-slate-400">{t('room.forward.none')}</p>
        ) : (
          <ul aria-label={t('room.forward.chats')} className="mt-2 max-h-72 space-y-1 overflow-y-auto">
            {shown.map((c) => {
              const on = chosen.includes(c.chat_id);
              return (
                <li
                  key={c.chat_id}
                  translate="no"
                  className="rounded-lg px-2 py-1.5 hover:bg-slate-100 dark:hover:bg-slate-800"
                >
                  <Checkbox
                    label={c.display_name}
                    checked={on}
                    disabled={!on && full}
                    onChange={(e) => toggle(c.chat_id, e.target.checked)}
                  />
                </li>
              );
            })}
          </ul>
        )}
        <div className="mt-6 flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t('room.msg.cancel')}
          </Button>
          <Button onClick={() => void send()} disabled={chosen.length === 0 || busy}>
            {t('room.menu.forward')}
          </Button>
        </div>
      </div>
    </ModalDialog>
  );
}
