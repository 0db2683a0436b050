import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStorage } from '../../../lib/session/memory-storage';
import { rememberSsoReturn, ssoLanding, ssoStartHref, takeSsoReturn } from './sso-landing';

describe('the address single sign-on comes back to', () => {
  it('carries a one-time code or the kind of error, or nothing', () => {
    expect(ssoLanding('#sso=abc_DEF-1')).toEqual({ code: 'abc_DEF-1' });
    expect(ssoLanding('#sso_error=state')).toEqual({ error: 'state' });
    expect(ssoLanding('')).toBeNull();
    expect(ssoLanding('#other=1')).toBeNull();
  });
});

describe('the sign-in button’s address', () => {
  it('is on the API’s host, with the sign-up page’s invite link', () => {
    expect(ssoStartHref('/api/auth/oidc/start', '/api', null)).toBe('/api/auth/oidc/start');
    expect(ssoStartHref('/api/auth/oidc/start', 'https://api.example/api', 'a b')).toBe(
      'https://api.example/api/auth/oidc/start?invite=a%20b',
    );
  });
});

describe('where the person was going', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is kept in the tab while they are at the provider, and read back once', () => {
    vi.stubGlobal('window', { sessionStorage: createMemoryStorage() });
    rememberSsoReturn('/chats/abc');
    expect(takeSsoReturn()).toBe('/chats/abc');
    expect(takeSsoReturn()).toBeNull();
  });

  it('is simply forgotten where the tab keeps nothing', () => {
    expect(() => rememberSsoReturn('/chats/abc')).not.toThrow();
    expect(takeSsoReturn()).toBeNull();
  });
});
