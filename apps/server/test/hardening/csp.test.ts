import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app';

// CSP connect-src (issue 13): sockets to this origin only (and PUBLIC_URL's), not `ws:`/`wss:` to any host.
const connectSrc = (csp: string | null) =>
  (csp ?? '')
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([name]) => name === 'connect-src')
    ?.slice(1) ?? [];

describe('Content-Security-Policy connect-src', () => {
  const app = useTestApp();

  it('allows this origin and its sockets, and no other host', async () => {
    const t = app();
    const res = await t.get('/api/health');
    const host = new URL(t.baseUrl).host;
    const sources = connectSrc(res.headers.get('content-security-policy'));
    expect(sources).toEqual(["'self'", `ws://${host}`, `wss://${host}`]);
    expect(sources).not.toContain('ws:');
    expect(sources).not.toContain('wss:');
  });
});

describe('Content-Security-Policy connect-src behind PUBLIC_URL', () => {
  const app = useTestApp({ env: { PUBLIC_URL: 'https://chat.example.test' } });

  it("adds PUBLIC_URL's socket origins", async () => {
    const t = app();
    const res = await t.get('/api/health');
    const sources = connectSrc(res.headers.get('content-security-policy'));
    expect(sources).toContain('wss://chat.example.test');
    expect(sources.filter((s) => !s.startsWith("'")).every((s) => /^wss?:\/\/[^/]+$/.test(s))).toBe(true);
  });
});
