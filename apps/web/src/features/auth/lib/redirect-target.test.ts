import { describe, expect, it } from 'vitest';
import { keptTarget, redirectTarget } from './redirect-target';

describe('redirectTarget', () => {
  it('returns the saved location with its search and hash', () => {
    expect(redirectTarget({ from: { pathname: '/settings', search: '?a=1', hash: '#x' } })).toBe(
      '/settings?a=1#x',
    );
    expect(redirectTarget({ from: '/chats/abc' })).toBe('/chats/abc');
  });

  it("defaults to '/'", () => {
    expect(redirectTarget(null)).toBe('/');
    expect(redirectTarget({})).toBe('/');
    expect(redirectTarget({ from: 42 })).toBe('/');
  });

  it('never leads back into the auth screens or off the site', () => {
    expect(redirectTarget({ from: { pathname: '/login' } })).toBe('/');
    expect(redirectTarget({ from: '/verify-email' })).toBe('/');
    expect(redirectTarget({ from: '//evil.example' })).toBe('/');
    expect(redirectTarget({ from: 'https://evil.example' })).toBe('/');
  });
});

describe('keptTarget', () => {
  it('hands the saved location on to the next screen, and nothing when there is none', () => {
    const from = { pathname: '/join/abc', search: '', hash: '' };
    expect(keptTarget({ from, email: 'ada@example.test' })).toEqual({ from });
    expect(redirectTarget({ email: 'ada@example.test', ...keptTarget({ from }) })).toBe('/join/abc');
    expect(keptTarget(null)).toEqual({});
    expect(keptTarget({ email: 'ada@example.test' })).toEqual({});
  });
});
