import { LogIn, LogOut, MessagesSquare, Search, Settings, UserRound } from 'lucide-react';
import type { ComponentType, ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { Logo } from '../components/logo';
import { buttonClasses } from '../components/ui/button';
import { UnreadBadge } from '../features/notifications/unread-badge';
import { useAuth } from '../lib/auth-store';
import { cn } from '../lib/cn';
import { useSignOut } from '../lib/use-sign-out';
import { useOpenSearch } from './use-open-search';

function NavItem({
  to,
  label,
  icon: Icon,
  badge,
}: {
  to: string;
  label: string;
  icon: ComponentType<{ className?: string }>;
  badge?: ReactNode;
}) {
  return (
    <NavLink
      to={to}
      className={({ isActive }) =>
        cn(
          'inline-flex h-9 items-center gap-2 rounded-lg px-2.5 text-sm font-medium transition-colors',
          isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
        )
      }
    >
      <Icon aria-hidden="true" className="size-4.5" />
      <span className="sr-only sm:not-sr-only">{label}</span>
      {badge}
    </NavLink>
  );
}

/** Opens the search dialog; its shortcut is shown (and named) on wide screens: Cmd on Apple devices, Ctrl elsewhere. */
function SearchButton() {
  const openSearch = useOpenSearch();
  const apple = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
  return (
    <button
      type="button"
      onClick={openSearch}
      aria-keyshortcuts={apple ? 'Meta+K' : 'Control+K'}
      className="inline-flex h-9 items-center gap-2 rounded-lg px-2.5 text-sm font-medium text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 md:border md:border-slate-200 md:pr-1.5"
    >
      <Search aria-hidden="true" className="size-4.5" />
      <span className="sr-only sm:not-sr-only">Search</span>
      <kbd className="hidden rounded border border-slate-200 bg-slate-50 px-1.5 font-sans text-xs text-slate-600 md:inline">
        {apple ? '⌘K' : 'Ctrl K'}
      </kbd>
    </button>
  );
}

export function AppHeader() {
  const isAuthenticated = useAuth((s) => s.isAuthenticated);
  const signOut = useSignOut();
  return (
    <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-5xl items-center justify-between gap-2 px-4 sm:px-6">
        <Link to="/" aria-label="Parley home" className="rounded-lg">
          <Logo />
        </Link>
        <nav aria-label="Main" className="flex items-center gap-1">
          {isAuthenticated ? (
            <>
              <SearchButton />
              <NavItem to="/chats" label="Chats" icon={MessagesSquare} badge={<UnreadBadge />} />
              <NavItem to="/profile" label="Profile" icon={UserRound} />
              <NavItem to="/settings" label="Settings" icon={Settings} />
              <button
                type="button"
                onClick={() => void signOut('/')}
                className="inline-flex h-9 items-center gap-2 rounded-lg px-2.5 text-sm font-medium text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900"
              >
                <LogOut aria-hidden="true" className="size-4.5" />
                <span className="sr-only sm:not-sr-only">Log out</span>
              </button>
            </>
          ) : (
            <>
              <Link to="/login" className={buttonClasses('ghost', 'sm')}>
                <LogIn aria-hidden="true" className="size-4" />
                Log in
              </Link>
              <Link to="/register" className={buttonClasses('primary', 'sm')}>
                Sign up
              </Link>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}
