import { type ReactNode, useEffect, useRef } from 'react';

/**
 * The search dialogs' modal: a <dialog> near the top of the screen (the browser traps focus and returns it
 * afterwards); Escape or a click on the backdrop closes it. Mounted only while open.
 */
export function DialogFrame({
  labelledBy,
  onClose,
  children,
}: {
  labelledBy: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a backdrop click's keyboard counterpart is Escape (onCancel).
    <dialog
      ref={ref}
      aria-labelledby={labelledBy}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A click on the dialog element itself, outside its content box, is a click on the backdrop.
        if (event.target === event.currentTarget) onClose();
      }}
      className="mx-auto mt-[8vh] mb-auto open:flex max-h-[80dvh] w-[calc(100%-1.5rem)] max-w-xl flex-col overflow-hidden rounded-2xl bg-white p-0 text-slate-900 shadow-2xl mobile:mt-3 mobile:max-h-[calc(100dvh-1.5rem)]"
    >
      {children}
    </dialog>
  );
}
