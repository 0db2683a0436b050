import type { Message } from '@parley/protocol';
import { type RefObject, useCallback, useEffect, useRef } from 'react';
import { type AckBatcher, createAckBatcher } from '../../../lib/realtime/ack-batcher';
import type { SocketStatus } from '../../../lib/realtime/chat-socket';
import { dueAcks, type ReportedAcks } from '../lib/room-acks';
import type { RoomSocket } from './use-room-socket';

// Read and delivered reports for others' messages (see room-acks.ts for which and when). Both go through
// batchers, so a busy room costs one frame per type per window, not two per message.

interface RoomAcks {
  read: AckBatcher;
  delivered: AckBatcher;
}

export function useRoomAcks(
  socketRef: RefObject<RoomSocket | null>,
  messages: Message[],
  meId: number,
  status: SocketStatus,
  reading: boolean,
  /** Watching a public group from outside: nothing is reported (the reader's marks are a member's). */
  watching = false,
) {
  /** Ids queued on the current connection (cleared on every open: a reconnect reports again what was lost). */
  const reported = useRef<ReportedAcks>({ read: new Set(), delivered: new Set() });
  /** Made on first use and again after leaving, so a remounted room gets fresh ones. */
  const batchers = useRef<RoomAcks | null>(null);

  // A failed send is not retried: the socket is gone, and the next open reports again after catch-up.
  const acks = useCallback((): RoomAcks => {
    batchers.current ??= {
      read: createAckBatcher({
        send: (ids) => void socketRef.current?.send({ type: 'read_messages', message_ids: ids }),
      }),
      delivered: createAckBatcher({
        send: (ids) => void socketRef.current?.send({ type: 'messages_delivered', message_ids: ids }),
      }),
    };
    return batchers.current;
  }, [socketRef]);

  useEffect(() => {
    if (status !== 'connected' || watching) return;
    const due = dueAcks(messages, meId, reading, reported.current);
    if (reading) acks().read.add(due.read);
    else acks().delivered.add(due.delivered);
  }, [messages, status, reading, watching, meId, acks]);

  /** A new connection: everything not yet confirmed is reported again. */
  const onOpen = useCallback(() => {
    reported.current.read.clear();
    reported.current.delivered.clear();
  }, []);

  /** Queued acks cannot go out; the next open reports them again. */
  const onDown = useCallback(() => {
    batchers.current?.read.drop();
    batchers.current?.delivered.drop();
  }, []);

  /** Leaving: whatever is queued goes out now, while the socket is still open. */
  const onLeave = useCallback(() => {
    batchers.current?.read.stop();
    batchers.current?.delivered.stop();
    batchers.current = null;
  }, []);

  return { onOpen, onDown, onLeave };
}
