import { createContext, useContext } from 'react';

/** What a pending message of one's own can do: be cancelled; and whether the room is offline now. */
export interface PendingActions {
  cancel: (clientId: string) => void;
  /** The room's socket is not connected: what is pending waits in the outbox. */
  waiting: boolean;
}

export const PendingActionsContext = createContext<PendingActions | null>(null);

export const usePendingActions = () => useContext(PendingActionsContext);
