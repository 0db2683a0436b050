import type { NotificationPayload } from '@parley/protocol';
import { activeChatRoom } from '../../lib/realtime/chat-socket-shared';

const supported = () => typeof window !== 'undefined' && 'Notification' in window;

export const chatPathOf = (payload: Pick<NotificationPayload, 'chatroom_id' | 'is_private'>) =>
  `/${payload.is_private ? 'chats' : 'groups'}/${encodeURIComponent(payload.chatroom_id)}`;

/** Whether that chat is the room on screen right now (then the message is already in view). */
export const isChatOnScreen = (chatId: string) =>
  activeChatRoom.getState().chatId === chatId && document.visibilityState === 'visible';

/**
 * A browser notification for a message in a chat not on screen, tagged with the chat's id so a newer message
 * of the same chat replaces the older notification. Clicking it opens the chat.
 */
export function notifyNewMessage(payload: NotificationPayload, open: (path: string) => void): void {
  if (!supported() || Notification.permission !== 'granted' || isChatOnScreen(payload.chatroom_id)) return;
  try {
    const notification = new Notification(payload.sender || 'New message', {
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
