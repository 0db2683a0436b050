import type { AuthUser } from '@parley/protocol';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthStorage } from './auth-storage';
import { createAuthStore, toSignedIn } from './auth-store';
import { createMemoryStorage } from './memory-storage';

const user: AuthUser = {
  id: 1,
  username: 'ada',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  displayname: 'Ada',
  avatar: null,
  is_activated: true,
  is_blue_verified: false,
};

let storage: AuthStorage;
let logoutRequest: ReturnType<typeof vi.fn>;
const makeStore = () => createAuthStore({ storage, logoutRequest });

beforeEach(() => {
  storage = { persistent: createMemoryStorage(), session: createMemoryStorage() };
  logoutRequest = vi.fn().mockResolvedValue(null);
});

describe('auth store (SPEC §4)', () => {
  it('starts loading and signed out', () => {
    expect(makeStore().getState()).toMatchObject({
      user: null,
      token: null,
      isAuthenticated: false,
      loading: true,
      error: null,
    });
  });

  it('loads a session kept in localStorage', () => {
    storage.persistent.setItem('token', 't1');
    storage.persistent.setItem('user', JSON.stringify(user));
    const store = makeStore();
    store.getState().loadFromStorage();
    expect(store.getState()).toMatchObject({ user, token: 't1', isAuthenticated: true, loading: false });
  });

  it('loads a session kept in sessionStorage', () => {
    storage.session.setItem('token', 't2');
    storage.session.setItem('user', JSON.stringify(user));
    const store = makeStore();
    store.getState().loadFromStorage();
    expect(store.getState()).toMatchObject({ token: 't2', isAuthenticated: true, loading: false });
  });

  it('fails to load with a token but no user, and clears token, user and rememberMe', () => {
    storage.persistent.setItem('token', 't1');
    storage.persistent.setItem('rememberMe', 'true');
    storage.session.setItem('user', JSON.stringify(user));
    const store = makeStore();
    store.getState().loadFromStorage();
    expect(store.getState()).toMatchObject({
      user: null,
      token: null,
      isAuthenticated: false,
      loading: false,
    });
    expect(storage.persistent.length).toBe(0);
    expect(storage.session.length).toBe(0);
  });

  it('fails to load a user that is not JSON', () => {
    storage.persistent.setItem('token', 't1');
    storage.persistent.setItem('user', '{oops');
    const store = makeStore();
    store.getState().loadFromStorage();
    expect(store.getState().isAuthenticated).toBe(false);
    expect(storage.persistent.getItem('token')).toBeNull();
  });

  it('login start sets loading and clears the error', () => {
    const store = makeStore();
    store.setState({ loading: false, error: 'old' });
    store.getState().loginStart();
    expect(store.getState()).toMatchObject({ loading: true, error: null });
  });

  it('login success with remember me keeps the session in localStorage', () => {
    const store = makeStore();
    store.getState().loginStart();
    store.getState().loginSuccess({ user, token: 'tok', rememberMe: true });
    expect(store.getState()).toMatchObject({
      user,
      token: 'tok',
      isAuthenticated: true,
      loading: false,
      error: null,
    });
    expect(storage.persistent.getItem('token')).toBe('tok');
    expect(JSON.parse(storage.persistent.getItem('user')!)).toEqual(user);
    expect(storage.persistent.getItem('rememberMe')).toBe('true');
    expect(storage.session.getItem('token')).toBeNull();
  });

  it('login success without remember me keeps the session in sessionStorage only', () => {
    storage.persistent.setItem('token', 'stale');
    const store = makeStore();
    store.getState().loginSuccess({ user, token: 'tok', rememberMe: false });
    expect(storage.session.getItem('token')).toBe('tok');
    expect(storage.session.getItem('rememberMe')).toBe('false');
    expect(storage.persistent.getItem('token')).toBeNull();
  });

  it('login failure clears the user and stores the error', () => {
    const store = makeStore();
    store.setState({ user, token: 'x', isAuthenticated: true });
    store.getState().loginFailure('Invalid email or password.');
    expect(store.getState()).toMatchObject({
      user: null,
      token: null,
      isAuthenticated: false,
      loading: false,
      error: 'Invalid email or password.',
    });
  });

  it('register start, success needing verification and failure', () => {
    const store = makeStore();
    store.getState().registerStart();
    expect(store.getState()).toMatchObject({ loading: true, error: null });
    store.getState().registerSuccess();
    expect(store.getState()).toMatchObject({ loading: false, isAuthenticated: false, error: null });
    store.getState().registerStart();
    store.getState().registerFailure('Registration failed. Please try again.');
    expect(store.getState()).toMatchObject({
      loading: false,
      user: null,
      error: 'Registration failed. Please try again.',
    });
  });

  it('logout calls the server with the token, then clears everything', async () => {
    const store = makeStore();
    store.getState().loginSuccess({ user, token: 'tok', rememberMe: true });
    await store.getState().logout();
    expect(logoutRequest).toHaveBeenCalledWith('tok');
    expect(store.getState()).toMatchObject({ user: null, token: null, isAuthenticated: false, error: null });
    expect(storage.persistent.length).toBe(0);
  });

  it('logout still clears when the server call fails', async () => {
    logoutRequest.mockRejectedValue(new Error('offline'));
    const store = makeStore();
    store.getState().loginSuccess({ user, token: 'tok', rememberMe: false });
    await store.getState().logout();
    expect(store.getState().isAuthenticated).toBe(false);
    expect(storage.session.length).toBe(0);
  });

  it('clearSession forgets the session without calling the server', () => {
    const store = makeStore();
    store.getState().loginSuccess({ user, token: 'tok', rememberMe: true });
    store.getState().clearSession();
    expect(logoutRequest).not.toHaveBeenCalled();
    expect(store.getState().isAuthenticated).toBe(false);
    expect(storage.persistent.getItem('token')).toBeNull();
  });

  it('update user replaces and persists the user where the token lives', () => {
    const store = makeStore();
    store.getState().loginSuccess({ user, token: 'tok', rememberMe: false });
    const renamed = { ...user, email: 'new@example.com' };
    store.getState().updateUser(renamed);
    expect(store.getState().user).toEqual(renamed);
    expect(JSON.parse(storage.session.getItem('user')!)).toEqual(renamed);
    expect(storage.persistent.getItem('user')).toBeNull();
  });

  it('clear error', () => {
    const store = makeStore();
    store.getState().loginFailure('x');
    store.getState().clearError();
    expect(store.getState().error).toBeNull();
  });

  it('toSignedIn splits the token from the flat user fields', () => {
    expect(toSignedIn({ ...user, token: 'abc' }, true)).toEqual({ user, token: 'abc', rememberMe: true });
  });
});
