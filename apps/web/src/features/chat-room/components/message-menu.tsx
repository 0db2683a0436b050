import type { Message } from '@parley/protocol';
import {
  Copy,
  Flag,
  Forward,
  MessageSquareReply,
  MoreHorizontal,
  Pencil,
  Plus,
  Reply,
  SmilePlus,
  Trash2,
} from 'lucide-react';
import {
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { createPortal } from 'react-dom';
import { ReportDialog } from '../../../components/report-dialog';
import { useT } from '../../../lib/i18n/i18n';
import { cn } from '../../../lib/ui/cn';
import { FREQUENT_EMOJI } from '../lib/frequent-emoji';
import { EmojiPicker } from './emoji-picker';
import type { MessageActions } from './message-actions-context';
import { MessageMarkItems } from './message-mark-items';

// A message's actions menu: a button that shows on hover or focus (long press opens it on touch),
// and a menu drawn over the page (the list's rows are transformed and clipped, so it is portalled to the body
// and placed next to its button). Arrow keys move between items, Escape closes and returns focus.

export interface MessageMenuProps {
  message: Message;
  actions: MessageActions;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

const ITEM =
  'flex w-full items-center gap-2 rounded-md px-3 py-2 text-start text-sm text-slate-700 dark:text-slate-300 outline-none hover:bg-slate-100 dark:hover:bg-slate-800 focus-visible:bg-slate-100 dark:focus-visible:bg-slate-800';

export function MessageMenu({ message, actions, open, onOpenChange }: MessageMenuProps) {
  const t = useT();
  const trigger = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const [picking, setPicking] = useState(false);
  /** The full emoji picker, opened from the row of frequent ones. */
  const [fullPicker, setFullPicker] = useState(false);
  /** The report dialog, for someone else's message. */
  const [reporting, setReporting] = useState(false);
  const close = (refocus = true) => {
    onOpenChange(false);
    setPicking(false);
    if (refocus) trigger.current?.focus();
  };
  const mine = message.sender === actions.meId;
  // A thread starts under a message of the timeline: not a system line, not a reply that is itself in one.
  const { openThread } = actions;
  const threadable = openThread !== undefined && message.kind === 'user' && message.thread_root == null;
  const run = (action: () => void) => () => {
    close(false);
    action();
  };

  return (
    <>
      <button
        ref={trigger}
        type="button"
        aria-label={t('room.menu.label')}
        title={t('room.menu.label')}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close() : onOpenChange(true))}
        className={cn(
          'inline-flex size-8 shrink-0 items-center justify-center self-center rounded-full text-slate-500 dark:text-slate-400 transition-opacity hover:bg-slate-200 dark:hover:bg-slate-700 hover:text-slate-800 dark:hover:text-white focus-visible:opacity-100',
          open ? 'opacity-100' : 'opacity-0 group-hover:opacity-100',
        )}
      >
        <MoreHorizontal aria-hidden="true" className="size-5" />
      </button>
      {open && (
        <MenuPopup
          id={menuId}
          anchor={trigger}
          onClose={close}
          label={picking ? t('room.menu.pickReaction') : t('room.menu.label')}
        >
          {picking ? (
            <div className="grid grid-cols-6 gap-1 p-1">
              {FREQUENT_EMOJI.map((emoji) => (
                <button
                  key={emoji}
                  type="button"
                  role="menuitem"
                  aria-label={t('room.menu.reactWith', { emoji })}
                  title={t('room.menu.reactWith', { emoji })}
                  // Focus goes back to the menu's button: nothing else takes it after a reaction.
                  onClick={() => {
                    close();
                    actions.toggleReaction(message, emoji);
                  }}
                  className="flex size-9 items-center justify-center rounded-md text-xl outline-none hover:bg-slate-100 dark:hover:bg-slate-800 focus-visible:bg-slate-100 dark:focus-visible:bg-slate-800 focus-visible:ring-2 focus-visible:ring-brand-600"
                >
                  {emoji}
                </button>
              ))}
              <button
                type="button"
                role="menuitem"
                aria-label={t('room.menu.moreEmoji')}
                title={t('room.menu.moreEmoji')}
                onClick={run(() => setFullPicker(true))}
                className="col-span-6 flex h-9 items-center justify-center gap-1 rounded-md text-sm text-slate-700 outline-none hover:bg-slate-100 focus-visible:bg-slate-100 focus-visible:ring-2 focus-visible:ring-brand-600"
              >
                <Plus aria-hidden="true" className="size-4" />
                {t('room.menu.moreEmoji')}
              </button>
            </div>
          ) : (
            <>
              <MenuItem
                icon={<Reply className="rtl:-scale-x-100" />}
                onClick={run(() => actions.reply(message))}
              >
                {t('room.menu.reply')}
              </MenuItem>
              <MenuItem icon={<SmilePlus />} onClick={() => setPicking(true)}>
                {t('room.menu.react')}
              </MenuItem>
              {threadable && (
                <MenuItem icon={<MessageSquareReply />} onClick={run(() => openThread(message.id))}>
                  {t('room.menu.replyInThread')}
                </MenuItem>
              )}
              {message.kind === 'user' && !message.is_deleted && (
                <MenuItem
                  icon={<Forward className="rtl:-scale-x-100" />}
                  onClick={run(() => actions.forward(message))}
                >
                  {t('room.menu.forward')}
                </MenuItem>
              )}
              {actions.marks && (
                <MessageMarkItems message={message} marks={actions.marks} Item={MenuItem} run={run} />
              )}
              {mine && message.body && (
                <MenuItem icon={<Pencil />} onClick={run(() => actions.edit(message))}>
                  {t('room.menu.edit')}
                </MenuItem>
              )}
              {message.body && (
                <MenuItem icon={<Copy />} onClick={run(() => actions.copy(message))}>
                  {t('room.menu.copy')}
                </MenuItem>
              )}
              {(mine || actions.canDeleteAny) && (
                <MenuItem icon={<Trash2 />} danger onClick={run(() => actions.remove(message))}>
                  {t('room.menu.delete')}
                </MenuItem>
              )}
              {!mine && message.sender !== null && (
                <MenuItem icon={<Flag />} onClick={run(() => setReporting(true))}>
                  {t('room.menu.report')}
                </MenuItem>
              )}
            </>
          )}
        </MenuPopup>
      )}
      {reporting && (
        <ReportDialog
          subject="this message"
          target={{ message_id: message.id }}
          onClose={() => {
            setReporting(false);
            trigger.current?.focus();
          }}
        />
      )}
      {fullPicker && (
        <EmojiPicker
          anchor={trigger}
          label={t('room.menu.pickReaction')}
          onPick={(emoji) => {
            setFullPicker(false);
            trigger.current?.focus();
            actions.toggleReaction(message, emoji);
          }}
          onClose={(refocus) => {
            setFullPicker(false);
            if (refocus) trigger.current?.focus();
          }}
        />
      )}
    </>
  );
}

function MenuItem({
  icon,
  children,
  onClick,
  danger,
}: {
  icon: ReactNode;
  children: ReactNode;
  onClick: () => void;
  danger?: boolean;
}) {
  return (
    <button
      type="button"
      role="menuitem"
      onClick={onClick}
      className={cn(ITEM, danger && 'text-red-600 dark:text-red-400')}
    >
      <span aria-hidden="true" className="[&>svg]:size-4">
        {icon}
      </span>
      {children}
    </button>
  );
}

const GAP = 4;
const EDGE = 8;

function MenuPopup({
  id,
  anchor,
  label,
  onClose,
  children,
}: {
  id: string;
  anchor: RefObject<HTMLElement | null>;
  label: string;
  onClose: (refocus?: boolean) => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  // Placed beside the button: below it when there is room, otherwise above; always inside the window.
  // Runs again when the content changes (the emoji grid replaces the items).
  const place = useCallback(() => {
    const menu = ref.current;
    const button = anchor.current;
    if (!menu || !button) return;
    const b = button.getBoundingClientRect();
    const { width, height } = menu.getBoundingClientRect();
    const below = b.bottom + GAP + height <= window.innerHeight - EDGE;
    const top = below ? b.bottom + GAP : Math.max(EDGE, b.top - GAP - height);
    const left = Math.min(Math.max(EDGE, b.right - width), window.innerWidth - width - EDGE);
    menu.style.top = `${top}px`;
    menu.style.left = `${left}px`;
    menu.style.visibility = 'visible';
  }, [anchor]);
  useLayoutEffect(place);
  // The first item takes the focus when the menu opens and when the emoji grid replaces the items.
  useLayoutEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [label]);

  // A click elsewhere closes it. A scroll or a resize moves it with its message: the list scrolls by itself
  // (following the bottom as receipts and images arrive) and a phone resizes for its keyboard, and a menu that
  // vanished then would lose the person's click. Only a message scrolled out of view, or gone, closes it.
  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!ref.current?.contains(target) && !anchor.current?.contains(target)) onCloseRef.current(false);
    };
    const onScroll = (event: Event) => {
      if (ref.current?.contains(event.target as Node)) return;
      const button = anchor.current;
      const b = button?.getBoundingClientRect();
      const inView = button?.isConnected && b && b.bottom > 0 && b.top < window.innerHeight;
      if (inView) place();
      else onCloseRef.current(false);
    };
    document.addEventListener('pointerdown', onPointer, true);
    document.addEventListener('scroll', onScroll, true);
    window.addEventListener('resize', onScroll);
    return () => {
      document.removeEventListener('pointerdown', onPointer, true);
      document.removeEventListener('scroll', onScroll, true);
      window.removeEventListener('resize', onScroll);
    };
  }, [anchor, place]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      items[(to + items.length) % items.length]?.focus();
    };
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowRight') move(index + 1);
    else if (event.key === 'ArrowUp' || event.key === 'ArrowLeft') move(index - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(items.length - 1);
    else if (event.key === 'Tab') onClose(false);
  };

  return createPortal(
    <div
      ref={ref}
      id={id}
      role="menu"
      aria-label={label}
      onKeyDown={onKeyDown}
      style={{ position: 'fixed', top: 0, left: 0, visibility: 'hidden' }}
      className="z-50 min-w-44 rounded-xl border border-slate-200 dark:border-slate-800 bg-white dark:bg-slate-900 p-1 shadow-lg"
    >
      {children}
    </div>,
    document.body,
  );
}
