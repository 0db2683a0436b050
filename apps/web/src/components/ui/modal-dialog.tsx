import { type ReactNode, useEffect, useRef } from 'react';
import { cn } from '../../lib/ui/cn';

/**
 * A modal <dialog> mounted only while open: the browser traps the focus and returns it afterwards; Escape
 * calls `onClose`. The caller draws the content and names it with `labelledBy`.
 */
export function ModalDialog({
  labelledBy,
  describedBy,
  onClose,
  className,
  children,
}: {
  labelledBy: string;
  /** The id of the text that says what the dialog is about, read out with its name. */
  describedBy?: string;
  onClose: () => void;
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className={cn(
        'm-auto rounded-2xl bg-white dark:bg-slate-900 p-0 text-slate-900 dark:text-slate-100 shadow-xl',
        className,
      )}
    >
      {children}
    </dialog>
  );
}
