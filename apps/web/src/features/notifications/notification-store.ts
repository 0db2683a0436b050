import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

// What the notification channel last said: the unread count for the Chats badge.
export const notificationStore = createStore<{ count: number }>()(() => ({ count: 0 }));

export const useUnreadCount = (): number => useStore(notificationStore, (s) => s.count);
