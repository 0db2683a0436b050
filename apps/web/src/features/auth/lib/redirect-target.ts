// Where to go after signing in: the location the guard (or a join page) saved in router state, or '/'.
const AUTH_PATHS = ['/auth', '/login', '/register', '/verify-email', '/reset-password'];

interface SavedLocation {
  pathname?: unknown;
  search?: unknown;
  hash?: unknown;
}

export function redirectTarget(state: unknown): string {
  const from = (state as { from?: SavedLocation | string } | null)?.from;
  const path =
    typeof from === 'string'
      ? from
      : from && typeof from.pathname === 'string'
        ? `${from.pathname}${typeof from.search === 'string' ? from.search : ''}${typeof from.hash === 'string' ? from.hash : ''}`
        : null;
  // Only same-app paths; never back into the auth screens, never to another origin.
  if (!path?.startsWith('/') || path.startsWith('//')) return '/';
  if (AUTH_PATHS.some((p) => path === p || path.startsWith(`${p}/`) || path.startsWith(`${p}?`))) return '/';
  return path;
}

/**
 * The saved location as router state, handed on from one auth screen to the next (sign-up or login → email
 * verification → back to login), so wherever the person finally signs in still takes them where they were going.
 */
export function keptTarget(state: unknown): { from?: unknown } {
  const from = (state as { from?: unknown } | null)?.from;
  return from === undefined ? {} : { from };
}
