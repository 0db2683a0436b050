import type { AuthResponse, AuthUser } from '@parley/protocol';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { api } from '../http/api-client';
import {
  type AuthStorage,
  browserAuthStorage,
  clearSession,
  readSession,
  writeSession,
  writeUser,
} from './auth-storage';

// The signed-in session (SPEC §4). Only who is signed in lives here; every other server answer lives in the query cache.
export interface AuthState {
  user: AuthUser | null;
  token: string | null;
  isAuthenticated: boolean;
  loading: boolean;
  error: string | null;
}

export interface SignedIn {
  user: AuthUser;
  token: string;
  rememberMe: boolean;
}

export interface AuthActions {
  loadFromStorage: () => void;
  loginStart: () => void;
  loginSuccess: (session: SignedIn) => void;
  loginFailure: (error: string) => void;
  registerStart: () => void;
  /** Sign-up that needs verification: nothing is signed in, loading ends. */
  registerSuccess: () => void;
  registerFailure: (error: string) => void;
  logout: () => Promise<void>;
  /** Forgets the session locally without calling the server (its token was refused). */
  clearSession: () => void;
  updateUser: (user: AuthUser) => void;
  clearError: () => void;
}

export type AuthStore = AuthState & AuthActions;

export interface AuthStoreDeps {
  storage: AuthStorage;
  /** Revokes the token on the server; failures are ignored because the local session ends anyway. */
  logoutRequest: (token: string) => Promise<unknown>;
}

const signedOut = { user: null, token: null, isAuthenticated: false, loading: false, error: null } as const;

export function createAuthStore({ storage, logoutRequest }: AuthStoreDeps) {
  return createStore<AuthStore>()((set, get) => ({
    user: null,
    token: null,
    isAuthenticated: false,
    loading: true,
    error: null,

    loadFromStorage: () => {
      const session = readSession(storage);
      if (session) {
        set({ user: session.user, token: session.token, isAuthenticated: true, loading: false, error: null });
      } else {
        clearSession(storage);
        set({ ...signedOut });
      }
    },
    loginStart: () => set({ loading: true, error: null }),
    loginSuccess: ({ user, token, rememberMe }) => {
      writeSession(storage, { user, token, rememberMe });
      set({ user, token, isAuthenticated: true, loading: false, error: null });
    },
    loginFailure: (error) => set({ user: null, token: null, isAuthenticated: false, loading: false, error }),
    registerStart: () => set({ loading: true, error: null }),
    registerSuccess: () => set({ loading: false, error: null }),
    registerFailure: (error) =>
      set({ user: null, token: null, isAuthenticated: false, loading: false, error }),
    logout: async () => {
      // Signed out locally at once (the screen must not wait on the network), then the token is revoked.
      const { token } = get();
      clearSession(storage);
      set({ ...signedOut });
      if (token) await logoutRequest(token).catch(() => undefined);
    },
    clearSession: () => {
      clearSession(storage);
      set({ ...signedOut });
    },
    updateUser: (user) => {
      writeUser(storage, user);
      set({ user });
    },
    clearError: () => set({ error: null }),
  }));
}

/** Splits a login or verification answer into the stored user and its token. */
export function toSignedIn(response: AuthResponse, rememberMe: boolean): SignedIn {
  const { token, ...user } = response;
  return { user, token, rememberMe };
}

export const authStore = createAuthStore({
  storage: browserAuthStorage,
  logoutRequest: (token) =>
    api.post('/users/logout/', undefined, {
      headers: { Authorization: `Bearer ${token}` },
      ignoreUnauthorized: true,
    }),
});

export function useAuth<T>(selector: (state: AuthStore) => T): T {
  return useStore(authStore, selector);
}
