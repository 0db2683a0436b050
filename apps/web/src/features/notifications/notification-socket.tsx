import {
  type ChatListItem,
  type NotificationClientFrame,
  type NotificationFrame,
  SOCKET_CLIENT_TEXT,
} from '@parley/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../lib/http/api-client';
import { useNotificationPermission } from '../../lib/notifications/permission';
import { applyPresence } from '../../lib/queries/presence';
import { listAgrees } from '../../lib/queries/reading-chat';
import { settingsQueryOptions } from '../../lib/queries/settings-query';
import { threadQueryKeys } from '../../lib/queries/threads';
import { createKeyedAckBatcher } from '../../lib/realtime/ack-batcher';
import { fetchSocketTicket, ReconnectingSocket, socketUrl } from '../../lib/realtime/chat-socket';
import { chatQueryKeys } from '../../lib/realtime/chat-socket-shared';
import { lazyFrameSchema } from '../../lib/realtime/lazy-frame-schema';
import { onRetryChance } from '../../lib/realtime/retry-chance';
import { notifyNewMessage } from './browser-notification';
import { NotificationPrompt } from './notification-prompt';
import { notificationStore } from './notification-store';
import { usePushSubscription } from './push-subscription';

/** The frame schema, loaded beside the first ticket (as the room's is). */
const frames = lazyFrameSchema<NotificationFrame>(
  async () => (await import('../../lib/realtime/frame-schemas')).notificationFrameSchema,
);

/** The notification socket itself; loaded lazily so the first page's JavaScript stays small. */
export function NotificationSocket() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  // The Push Notifications switch governs Web Push and the in-app browser notifications alike.
  const pushOn = useQuery({ ...settingsQueryOptions(), select: (s) => s.profile.push_notification }).data;
  const pushOnRef = useRef(pushOn);
  pushOnRef.current = pushOn;
  const permission = useNotificationPermission();
  usePushSubscription(pushOn === undefined ? undefined : pushOn && permission === 'granted');

  useEffect(() => {
    const refreshChatList = () => void queryClient.invalidateQueries({ queryKey: chatQueryKeys.list() });
    let freshConnection = true;
    // Delivered acks per chat, coalesced: a busy chat costs one frame per window, not one per message. A
    // batch that cannot go out is dropped; the server recomputes when the chat is next opened.
    const deliveredAcks = createKeyedAckBatcher<string>(
      (chatroom_id, message_ids) =>
        void socket.send({ type: 'messages_delivered', chatroom_id, message_ids }),
    );
    const socket = new ReconnectingSocket<NotificationFrame, NotificationClientFrame>({
      onOpen: () => {
        freshConnection = true;
      },
      url: async () => {
        const [ticket] = await Promise.all([fetchSocketTicket(), frames.ready()]);
        return socketUrl('/ws/notifications/', ticket);
      },
      schema: frames.schema,
      // Closed with 4001: this session was signed out elsewhere (Settings, an admin). The next call gets the 401
      // that signs this tab out at once (SPEC §7), instead of it finding out at its next click.
      onError: (text) => {
        if (text === SOCKET_CLIENT_TEXT.authFailed) void api.get('/users/profile/').catch(() => undefined);
      },
      texts: {
        connectionError: SOCKET_CLIENT_TEXT.notificationError,
        invalidFormat: SOCKET_CLIENT_TEXT.notificationInvalid,
        authFailed: SOCKET_CLIENT_TEXT.authFailed,
        notFound: SOCKET_CLIENT_TEXT.notFound,
      },
      onFrame: (frame) => {
        if (frame.type === 'notification_count') {
          // The first count after each (re)connect comes once the server listens for us: anything that
          // changed before then (a group we were added to meanwhile) is fetched now. So is a list whose unread
          // counts no longer add up to the total (our own reads, written since it was fetched).
          const list = queryClient.getQueryData<ChatListItem[]>(chatQueryKeys.list());
          if (
            freshConnection ||
            frame.count !== notificationStore.getState().count ||
            !listAgrees(list, frame.count)
          )
            refreshChatList();
          freshConnection = false;
          notificationStore.setState({ count: frame.count });
        } else if (frame.type === 'new_message') {
          // Tell the server this browser has it, so the sender's tick turns to Delivered.
          deliveredAcks.add(frame.message.chatroom_id, [frame.message.message_id]);
          refreshChatList();
          // A reply in a followed thread: the Threads view's counts move.
          if (frame.message.thread_root)
            void queryClient.invalidateQueries({ queryKey: threadQueryKeys.followed() });
          // Until the settings load the default (on) applies. A muted chat raises none unless it mentions us.
          const quiet = frame.message.muted && !frame.message.mention;
          if (pushOnRef.current !== false && !quiet)
            notifyNewMessage(frame.message, (path) => void navigateRef.current(path));
        } else if (frame.type === 'chats_changed') {
          // Added to or removed from a group, or a group deleted.
          refreshChatList();
        } else if (frame.type === 'presence') {
          // Someone we share a chat with came online or went offline: every screen showing them follows.
          applyPresence(queryClient, frame);
        }
      },
    });
    // It retries by itself as the room's socket does (lib/realtime/backoff.ts), and at once when the network or
    // the tab comes back.
    socket.start();
    const stopListening = onRetryChance(() => socket.reconnectNow());
    return () => {
      stopListening();
      deliveredAcks.stop();
      socket.stop();
      notificationStore.setState({ count: 0 });
    };
  }, [queryClient]);

  return pushOn ? <NotificationPrompt /> : null;
}
