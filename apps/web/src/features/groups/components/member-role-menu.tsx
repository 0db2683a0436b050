import { Crown, MoreVertical, ShieldCheck, ShieldMinus } from 'lucide-react';
import {
  type KeyboardEvent,
  type ReactNode,
  type ToggleEvent,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { type MessageId, useT } from '../../../lib/i18n/i18n';
import type { RoleAction } from '../lib/member-roles';

const ACTIONS: Record<RoleAction, { label: MessageId; icon: ReactNode }> = {
  promote: { label: 'groups.roles.promote', icon: <ShieldCheck /> },
  demote: { label: 'groups.roles.demote', icon: <ShieldMinus /> },
  transfer: { label: 'groups.roles.transfer', icon: <Crown /> },
};

const EDGE = 8;

/**
 * A member's role menu (the owner's and the admins'). It is a popover in the top layer, so the scrolling member
 * list cannot clip it: the browser closes it on Escape or a click elsewhere and gives the focus back to its
 * button. Arrow keys, Home and End move between the items; a scroll or Tab closes it.
 */
export function MemberRoleMenu({
  name,
  actions,
  busy,
  onAction,
}: {
  name: string;
  actions: RoleAction[];
  busy?: boolean;
  onAction: (action: RoleAction) => void;
}) {
  const id = useId();
  const trigger = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const t = useT();
  const label = t('groups.roles.menu', { name });

  const hide = (refocus: boolean) => {
    menu.current?.hidePopover();
    if (refocus) trigger.current?.focus();
  };

  // Beside its button (below it when there is room, else above), inside the window; the first item focused.
  const onToggle = (event: ToggleEvent<HTMLDivElement>) => {
    const opened = event.newState === 'open';
    setOpen(opened);
    const popup = menu.current;
    const button = trigger.current;
    if (!popup || !button) return;
    if (!opened) {
      popup.style.visibility = 'hidden';
      return;
    }
    const b = button.getBoundingClientRect();
    const { width, height } = popup.getBoundingClientRect();
    const top = b.bottom + 4 + height <= window.innerHeight - EDGE ? b.bottom + 4 : b.top - 4 - height;
    popup.style.top = `${Math.max(EDGE, top)}px`;
    popup.style.left = `${Math.min(Math.max(EDGE, b.right - width), window.innerWidth - width - EDGE)}px`;
    popup.style.visibility = 'visible';
    popup.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  };

  // Placed once when it opened: a scroll or a resize would leave it beside nothing, so it closes.
  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (!menu.current?.contains(event.target as Node)) menu.current?.hidePopover();
    };
    document.addEventListener('scroll', close, true);
    window.addEventListener('resize', close);
    return () => {
      document.removeEventListener('scroll', close, true);
      window.removeEventListener('resize', close);
    };
  }, [open]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[event.key];
    if (to !== undefined) {
      event.preventDefault();
      items[(to + items.length) % items.length]?.focus();
    } else if (event.key === 'Tab') hide(false);
  };

  return (
    <>
      <button
        ref={trigger}
        type="button"
        popoverTarget={id}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={label}
        title={label}
        disabled={busy}
        className="inline-flex size-8 shrink-0 items-center justify-center rounded-full text-slate-500 hover:bg-slate-100 hover:text-slate-800 disabled:opacity-50 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
      >
        <MoreVertical aria-hidden="true" className="size-4" />
      </button>
      <div
        ref={menu}
        id={id}
        popover="auto"
        role="menu"
        aria-label={label}
        onToggle={onToggle}
        onKeyDown={onKeyDown}
        style={{ position: 'fixed', inset: 'auto', margin: 0, visibility: 'hidden' }}
        className="min-w-48 rounded-xl border border-slate-200 bg-white p-1 text-slate-700 shadow-lg dark:border-slate-800 dark:bg-slate-900 dark:text-slate-300"
      >
        {actions.map((action) => (
          <button
            key={action}
            type="button"
            role="menuitem"
            onClick={() => {
              hide(true);
              onAction(action);
            }}
            className="flex w-full items-center gap-2 rounded-md px-3 py-2 text-start text-sm outline-none hover:bg-slate-100 focus-visible:bg-slate-100 dark:hover:bg-slate-800 dark:focus-visible:bg-slate-800"
          >
            <span aria-hidden="true" className="[&>svg]:size-4">
              {ACTIONS[action].icon}
            </span>
            {t(ACTIONS[action].label)}
          </button>
        ))}
      </div>
    </>
  );
}
