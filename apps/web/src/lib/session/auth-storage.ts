import { type AuthUser, STORAGE_KEYS } from '@parley/protocol';
import { createMemoryStorage } from './memory-storage';

// Where the session lives (SPEC §4): localStorage when remember me is chosen, sessionStorage otherwise.
export interface AuthStorage {
  persistent: Storage;
  session: Storage;
}

export interface StoredSession {
  token: string;
  user: AuthUser;
  rememberMe: boolean;
}

function windowStorage(kind: 'localStorage' | 'sessionStorage'): Storage {
  try {
    if (typeof window !== 'undefined' && window[kind]) return window[kind];
  } catch {
    // Some browsers throw on access when storage is disabled; fall through to memory.
  }
  return createMemoryStorage();
}

export function createBrowserAuthStorage(): AuthStorage {
  return { persistent: windowStorage('localStorage'), session: windowStorage('sessionStorage') };
}

export const browserAuthStorage: AuthStorage = createBrowserAuthStorage();

function readFrom(storage: Storage): StoredSession | null {
  const token = storage.getItem(STORAGE_KEYS.token);
  const rawUser = storage.getItem(STORAGE_KEYS.user);
  if (!token || !rawUser) return null;
  try {
    const user = JSON.parse(rawUser) as AuthUser | null;
    if (!user || typeof user !== 'object') return null;
    return { token, user, rememberMe: storage.getItem(STORAGE_KEYS.rememberMe) === 'true' };
  } catch {
    return null;
  }
}

/** The stored session, persistent storage first. Null when either the token or the user is missing. */
export function readSession(storage: AuthStorage): StoredSession | null {
  return readFrom(storage.persistent) ?? readFrom(storage.session);
}

export function readToken(storage: AuthStorage): string | null {
  return storage.persistent.getItem(STORAGE_KEYS.token) ?? storage.session.getItem(STORAGE_KEYS.token);
}

function clearFrom(storage: Storage): void {
  storage.removeItem(STORAGE_KEYS.token);
  storage.removeItem(STORAGE_KEYS.user);
  storage.removeItem(STORAGE_KEYS.rememberMe);
}

export function clearSession(storage: AuthStorage): void {
  clearFrom(storage.persistent);
  clearFrom(storage.session);
}

export function writeSession(storage: AuthStorage, session: StoredSession): void {
  const target = session.rememberMe ? storage.persistent : storage.session;
  clearSession(storage);
  target.setItem(STORAGE_KEYS.token, session.token);
  target.setItem(STORAGE_KEYS.user, JSON.stringify(session.user));
  target.setItem(STORAGE_KEYS.rememberMe, String(session.rememberMe));
}

/** Replaces the stored user wherever the current token lives. */
export function writeUser(storage: AuthStorage, user: AuthUser): void {
  const target = storage.persistent.getItem(STORAGE_KEYS.token) ? storage.persistent : storage.session;
  if (!target.getItem(STORAGE_KEYS.token)) return;
  target.setItem(STORAGE_KEYS.user, JSON.stringify(user));
}
