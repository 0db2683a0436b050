import type { Message } from '@parley/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Bookmark, BookmarkX, Pin, PinOff } from 'lucide-react';
import type { ComponentType, ReactNode } from 'react';
import { serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { getSavedInChat, savedQueryKeys, setSaved } from '../../../lib/queries/saved';
import { toast } from '../../../lib/ui/toast';
import { getPins, pinQueryKeys, setPinned } from '../api/pins';
import type { MessageMarks } from './message-actions-context';

type MenuItem = ComponentType<{ icon: ReactNode; children: ReactNode; onClick: () => void }>;

/** A message that shows in the conversation, where a pinned bar can take the reader to it. */
const pinnable = (m: Message) => m.kind === 'user' && (m.thread_root == null || m.also_in_chat === true);

/**
 * 'Pin' or 'Unpin' (where the reader may pin) and 'Save' or 'Unsave' in a message's menu. Which messages are
 * pinned is the room's pinned bar's list; which are saved is asked for when a menu first opens in the room.
 */
export function MessageMarkItems({
  message,
  marks,
  Item,
  run,
}: {
  message: Message;
  marks: MessageMarks;
  /** The menu's own item. */
  Item: MenuItem;
  /** Closes the menu, then acts. */
  run: (action: () => void) => () => void;
}) {
  const t = useT();
  const queryClient = useQueryClient();
  const { chatId } = marks;
  const pins = useQuery({
    queryKey: pinQueryKeys.list(chatId),
    queryFn: () => getPins(chatId),
    enabled: marks.canPin,
    refetchOnMount: false,
  });
  const saved = useQuery({
    queryKey: savedQueryKeys.inChat(chatId),
    queryFn: () => getSavedInChat(chatId),
    staleTime: 60_000,
  });
  if (message.kind !== 'user') return null;
  const pinned = pins.data?.some((m) => m.id === message.id) ?? false;
  const isSaved = saved.data?.message_ids.includes(message.id) ?? false;
  const pin = (on: boolean) =>
    setPinned(queryClient, chatId, message.id, on).catch((error) =>
      toast.error(serverErrorOr(error, on ? t('room.menu.pinFailed') : t('room.menu.unpinFailed'))),
    );
  const save = (on: boolean) =>
    setSaved(queryClient, message, on).then(
      () => toast.success(on ? t('room.menu.saved') : t('room.menu.unsaved')),
      (error) => toast.error(serverErrorOr(error, t('room.menu.saveFailed'))),
    );
  return (
    <>
      {marks.canPin &&
        (pinned ? (
          <Item icon={<PinOff />} onClick={run(() => void pin(false))}>
            {t('room.menu.unpin')}
          </Item>
        ) : (
          pinnable(message) && (
            <Item icon={<Pin />} onClick={run(() => void pin(true))}>
              {t('room.menu.pin')}
            </Item>
          )
        ))}
      {isSaved ? (
        <Item icon={<BookmarkX />} onClick={run(() => void save(false))}>
          {t('room.menu.unsave')}
        </Item>
      ) : (
        <Item icon={<Bookmark />} onClick={run(() => void save(true))}>
          {t('room.menu.save')}
        </Item>
      )}
    </>
  );
}
