import { type RefObject, useEffect, useMemo, useRef } from 'react';
import { t } from '../../../lib/i18n/i18n';
import { toast } from '../../../lib/ui/toast';
import type { MessageActions } from '../components/message-actions-context';
import { COMPOSER_BOX_SELECTOR, COMPOSER_STAND_IN } from '../lib/composer-slot';

// A public group's room seen from outside ('watching'): the reader may read and copy, but replying, editing,
// deleting, reacting, voting and forwarding wait until they join.

/** The message actions as a watcher has them: those that need membership say so instead of failing. */
export function useWatchingActions(actions: MessageActions, watching: boolean): MessageActions {
  return useMemo(() => {
    if (!watching) return actions;
    const joinFirst = () => toast.info(t('browse.server.joinToPost'), { toastId: 'join-first' });
    return {
      ...actions,
      reply: joinFirst,
      edit: joinFirst,
      remove: joinFirst,
      forward: joinFirst,
      toggleReaction: () => toast.info(t('browse.room.joinToReact'), { toastId: 'join-first' }),
      vote: () => toast.info(t('browse.server.poll.joinToVote'), { toastId: 'join-first' }),
    };
  }, [actions, watching]);
}

/**
 * Once the reader joins, the Join button they pressed is gone: the focus goes to the composer that replaced it
 * (or, in an announcement channel, to the line saying only admins post).
 */
export function useFocusOnJoin(frameRef: RefObject<HTMLElement | null>, watching: boolean) {
  const wasWatching = useRef(watching);
  useEffect(() => {
    if (wasWatching.current && !watching) {
      const frame = frameRef.current;
      const target =
        frame?.querySelector<HTMLElement>(COMPOSER_BOX_SELECTOR) ??
        frame?.querySelector<HTMLElement>(`[${COMPOSER_STAND_IN}]`);
      target?.focus();
    }
    wasWatching.current = watching;
  }, [frameRef, watching]);
}
