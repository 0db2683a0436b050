import type { Message } from '@parley/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { threadQueryKeys } from '../../../lib/queries/threads';
import type { SocketStatus } from '../../../lib/realtime/chat-socket';
import { roomChannel } from '../../../lib/realtime/room-channel';
import { usePageAttended } from '../../../lib/ui/use-page-attention';
import { readFrames } from '../lib/thread-frames';

/**
 * Reports the replies of others that the open thread shows as read, while its page is before the reader's eyes:
 * `read_messages` with the thread's root, which moves the thread's unread count and not the chat's read marks.
 * Each reply is reported once per connection (a new one reports again what the drop may have lost).
 */
export function useThreadReads(
  chatId: string,
  rootId: number,
  meId: number,
  replies: Message[],
  status: SocketStatus,
) {
  const queryClient = useQueryClient();
  const attended = usePageAttended();
  const reported = useRef(new Set<number>());

  useEffect(() => {
    if (status !== 'connected') reported.current = new Set();
  }, [status]);

  useEffect(() => {
    if (status !== 'connected' || !attended) return;
    const due = replies.filter((m) => m.sender !== meId && !reported.current.has(m.id)).map((m) => m.id);
    if (due.length === 0) return;
    for (const frame of readFrames(rootId, due)) if (roomChannel.send(chatId, frame) !== 'sent') return;
    for (const id of due) reported.current.add(id);
    // The Threads view's unread counts are read again when next shown.
    void queryClient.invalidateQueries({ queryKey: threadQueryKeys.followed(), refetchType: 'none' });
  }, [chatId, rootId, meId, replies, status, attended, queryClient]);
}
