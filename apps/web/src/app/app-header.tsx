import {
  Bookmark,
  LogIn,
  LogOut,
  MessageSquareReply,
  MessagesSquare,
  Search,
  Settings,
  ShieldCheck,
  UserRound,
} from 'lucide-react';
import type { ComponentType, ReactNode } from 'react';
import { Link, useMatch } from 'react-router';
import { Logo } from '../components/logo';
import { buttonClasses } from '../components/ui/button';
import { UnreadBadge } from '../features/notifications/unread-badge';
import { useT } from '../lib/i18n/i18n';
import { useAuth } from '../lib/session/auth-store';
import { useSignOut } from '../lib/session/use-sign-out';
import { cn } from '../lib/ui/cn';
import { useOpenSearch } from './use-open-search';

function NavItem({
  to,
  label,
  icon: Icon,
  badge,
  alsoActiveOn,
}: {
  to: string;
  label: string;
  icon: ComponentType<{ className?: string }>;
  badge?: ReactNode;
  /** Another path pattern under which this item is the current one (Chats on /groups/*). */
  alsoActiveOn?: string;
}) {
  // NavLink's own matching, widened: /profile/edit is under Profile, and a group room is a chat.
  const here = useMatch({ path: to, end: false });
  const elsewhere = useMatch({ path: alsoActiveOn ?? to, end: false });
  const active = Boolean(here || (alsoActiveOn && elsewhere));
  return (
    <Link
      to={to}
      aria-current={active ? 'page' : undefined}
      className={cn(
        'inline-flex h-9 items-center gap-2 rounded-lg px-2 text-sm sm:px-2.5 font-medium transition-colors',
        active
          ? 'bg-brand-50 text-brand-700 dark:bg-brand-500/15 dark:text-brand-200'
          : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white',
      )}
    >
      <Icon aria-hidden="true" className="size-4.5" />
      <span className="sr-only sm:not-sr-only">{label}</span>
      {badge}
    </Link>
  );
}

/** Opens the search dialog; its shortcut is shown (and named) on wide screens: Cmd on Apple devices, Ctrl elsewhere. */
function SearchButton() {
  const t = useT();
  const openSearch = useOpenSearch();
  const apple = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
  return (
    <button
      type="button"
      onClick={openSearch}
      aria-keyshortcuts={apple ? 'Meta+K' : 'Control+K'}
      className="inline-flex h-9 items-center gap-2 rounded-lg px-2 text-sm sm:px-2.5 font-medium text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 md:border md:border-slate-200 dark:md:border-slate-800 md:pe-1.5 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white md:dark:border-slate-700"
    >
      <Search aria-hidden="true" className="size-4.5" />
      <span className="sr-only sm:not-sr-only">{t('nav.search')}</span>
      <kbd className="hidden rounded border border-slate-200 bg-slate-50 px-1.5 font-sans text-xs text-slate-600 md:inline dark:border-slate-700 dark:bg-slate-800 dark:text-slate-300">
        {apple ? '⌘K' : t('general.header.ctrlK')}
      </kbd>
    </button>
  );
}

export function AppHeader() {
  const t = useT();
  const isAuthenticated = useAuth((s) => s.isAuthenticated);
  const isSiteAdmin = useAuth((s) => s.user?.is_site_admin === true);
  const signOut = useSignOut();
  // Over the two-pane chats layout (the chats, the rooms, Threads, Saved) the header spans the window like the panes.
  // Each hook runs on every render (a short-circuit would change the hook count between routes).
  const chatsMatch = useMatch('/chats/*');
  const groupsMatch = useMatch('/groups/*');
  const threadsMatch = useMatch('/threads');
  const savedMatch = useMatch('/saved');
  const inChats = Boolean(chatsMatch || groupsMatch || threadsMatch || savedMatch);
  return (
    <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-900/90">
      <div
        className={cn(
          'mx-auto flex h-14 max-w-5xl items-center justify-between gap-2 px-3 sm:px-6',
          inChats && 'lg:max-w-none lg:px-4',
        )}
      >
        <Link to="/" aria-label={t('nav.home')} className="rounded-lg">
          {/* A site admin's header has one item more (Admin): on a phone the name gives way to it. */}
          <Logo compact={isAuthenticated && isSiteAdmin} />
        </Link>
        <nav aria-label={t('nav.main')} className="flex items-center gap-0.5 sm:gap-1">
          {isAuthenticated ? (
            <>
              <SearchButton />
              <NavItem
                to="/chats"
                label={t('nav.chats')}
                icon={MessagesSquare}
                badge={<UnreadBadge />}
                alsoActiveOn="/groups"
              />
              <NavItem to="/threads" label={t('nav.threads')} icon={MessageSquareReply} />
              <NavItem to="/saved" label={t('nav.saved')} icon={Bookmark} />
              <NavItem to="/profile" label={t('nav.profile')} icon={UserRound} />
              <NavItem to="/settings" label={t('nav.settings')} icon={Settings} />
              {isSiteAdmin && <NavItem to="/admin" label={t('nav.admin')} icon={ShieldCheck} />}
              <button
                type="button"
                onClick={() => void signOut('/')}
                className="inline-flex h-9 items-center gap-2 rounded-lg px-2 text-sm sm:px-2.5 font-medium text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
              >
                <LogOut aria-hidden="true" className="size-4.5 rtl:-scale-x-100" />
                <span className="sr-only sm:not-sr-only">{t('nav.logOut')}</span>
              </button>
            </>
          ) : (
            <>
              <Link to="/login" className={buttonClasses('ghost', 'sm')}>
                <LogIn aria-hidden="true" className="size-4 rtl:-scale-x-100" />
                {t('nav.logIn')}
              </Link>
              <Link to="/register" className={buttonClasses('primary', 'sm')}>
                {t('nav.signUp')}
              </Link>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}
