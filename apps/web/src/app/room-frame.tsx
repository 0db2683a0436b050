import { type ReactNode, Suspense, useEffect, useRef } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { GroupChatRoomPage, PrivateChatRoomPage } from '../features/chat-room/components/chat-room-page';
import { lazyRetry } from '../lib/ui/retry-import';
import { THREAD_BESIDE_QUERY, TWO_PANE_QUERY, useMediaQuery } from '../lib/ui/use-media-query';

// A room and, on {room}/thread/{root id}, the thread open under one of its messages. The room stays mounted
// while threads open and close (its socket, scroll and draft stay). From 1280 px the thread is a third pane beside
// the room; narrower it covers the room (full screen on a phone), which is then out of reach until it closes.

const loadThreadPane = () => import('./thread-pane-host');
const ThreadPaneHost = lazyRetry(async () => ({ default: (await loadThreadPane()).ThreadPaneHost }));

export const PrivateRoomRoute = () => <RoomFrame room={<PrivateChatRoomPage />} />;
export const GroupRoomRoute = () => <RoomFrame room={<GroupChatRoomPage />} />;

/** The room's path without its open thread. */
const withoutThread = (pathname: string) => pathname.replace(/\/thread\/[^/]*\/?$/, '');

function RoomFrame({ room }: { room: ReactNode }) {
  const { chatId = '', rootId: rootParam } = useParams();
  const rootId = rootParam && /^\d{1,12}$/.test(rootParam) ? Number(rootParam) : null;
  const beside = useMediaQuery(THREAD_BESIDE_QUERY);
  const twoPane = useMediaQuery(TWO_PANE_QUERY);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const roomRef = useRef<HTMLDivElement>(null);
  useFocusBackOnClose(roomRef, rootId);
  const covered = rootId !== null && !beside;
  // A thread's link asks for the pane's code while rendering: a room that suspends first (its own code, its
  // first page) would otherwise hold the pane back until it has drawn. Importing twice costs nothing.
  if (rootId !== null) void loadThreadPane().catch(() => undefined);

  return (
    <div className={twoPane ? 'relative flex min-h-0 flex-1' : 'relative flex w-full'}>
      <div ref={roomRef} inert={covered} className="flex min-w-0 flex-1 flex-col">
        {room}
      </div>
      {rootId !== null && (
        <Suspense fallback={null}>
          <ThreadPaneHost
            key={chatId}
            chatId={chatId}
            rootId={rootId}
            onClose={() => navigate(withoutThread(pathname))}
            className={
              beside
                ? 'w-96 shrink-0 border-s border-slate-200 dark:border-slate-800'
                : 'absolute inset-0 z-10'
            }
          />
        </Suspense>
      )}
    </div>
  );
}

/**
 * When a thread closes the focus goes back where it was opened from: its summary under the root, else the root,
 * else the room's composer.
 */
function useFocusBackOnClose(roomRef: React.RefObject<HTMLDivElement | null>, rootId: number | null) {
  const open = useRef(rootId);
  useEffect(() => {
    const closed = open.current;
    open.current = rootId;
    if (closed === null || rootId !== null) return;
    const room = roomRef.current;
    const target =
      room?.querySelector<HTMLElement>(`[data-thread-root="${closed}"]`) ??
      room?.querySelector<HTMLElement>(`[data-message-id="${closed}"]`) ??
      room?.querySelector<HTMLElement>('textarea[data-composer-box]');
    target?.focus({ preventScroll: false });
  }, [roomRef, rootId]);
}
