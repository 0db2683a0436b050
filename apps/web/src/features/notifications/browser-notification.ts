import type { NotificationPayload } from '@parley/protocol';
import { t } from '../../lib/i18n/i18n';
import { activeChatRoom } from '../../lib/realtime/chat-socket-shared';
import { chatPath, threadPath } from '../../lib/text/chat-path';

const supported = () => typeof window !== 'undefined' && 'Notification' in window;

/** Where a notice leads: the chat's room, or the thread a reply of a followed thread came in. */
export const chatPathOf = (
  payload: Pick<NotificationPayload, 'chatroom_id' | 'is_private' | 'thread_root'>,
) => {
  const chat = { chat_id: payload.chatroom_id, is_private: payload.is_private };
  return payload.thread_root ? threadPath(chat, payload.thread_root) : chatPath(chat);
};

/** Whether that chat is the room on screen right now (then the message is already in view). */
export const isChatOnScreen = (chatId: string) =>
  activeChatRoom.getState().chatId === chatId && document.visibilityState === 'visible';

/**
 * A browser notification for a message in a chat not on screen, tagged with the chat's id so a newer message
 * of the same chat replaces the older notification. Clicking it opens the chat (a thread's reply: the thread).
 */
export function notifyNewMessage(payload: NotificationPayload, open: (path: string) => void): void {
  if (!supported() || Notification.permission !== 'granted' || isChatOnScreen(payload.chatroom_id)) return;
  try {
    const notification = new Notification(payload.sender || t('general.notify.newMessage'), {
      body: payload.message,
      tag: payload.chatroom_id,
      icon: payload.sender_avatar ?? '/favicon.svg',
    });
    notification.onclick = () => {
      window.focus();
      open(chatPathOf(payload));
      notification.close();
    };
  } catch {
    // Some mobile browsers only allow notifications from a service worker; the badge still updates.
  }
}
