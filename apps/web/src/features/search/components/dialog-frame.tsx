import type { ReactNode } from 'react';
import { ModalDialog } from '../../../components/ui/modal-dialog';

/** The search dialogs' modal: near the top of the screen (results grow downwards), nearly full-screen on phones. */
export function DialogFrame({
  labelledBy,
  onClose,
  children,
}: {
  labelledBy: string;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <ModalDialog
      labelledBy={labelledBy}
      onClose={onClose}
      className="mt-[8vh] mb-auto max-h-[80dvh] w-[calc(100%-1.5rem)] max-w-xl flex-col overflow-hidden open:flex mobile:mt-3 mobile:max-h-[calc(100dvh-1.5rem)]"
    >
      {children}
    </ModalDialog>
  );
}
