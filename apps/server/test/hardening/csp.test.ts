import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inlineScriptHashes } from '../../src/platform/security-headers';
import { useTestApp } from '../helpers/test-app';

// CSP connect-src: sockets to this origin only (and PUBLIC_URL's), not `ws:`/`wss:` to any host.
const directive = (csp: string | null, wanted: string) =>
  (csp ?? '')
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([name]) => name === wanted)
    ?.slice(1) ?? [];
const connectSrc = (csp: string | null) => directive(csp, 'connect-src');

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

// script-src: the page's inline theme script runs before the first paint, allowed by its hash alone.
const THEME_SCRIPT = "\n      document.documentElement.classList.toggle('dark', false);\n    ";
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-csp-web-'));
fs.writeFileSync(
  path.join(webDist, 'index.html'),
  `<!doctype html><html><head><script>${THEME_SCRIPT}</script><script type="module" src="/assets/index.js"></script></head><body></body></html>`,
);
afterAll(() => fs.rmSync(webDist, { recursive: true, force: true }));
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('inline script hashes', () => {
  it('hashes the exact text of each inline script, and leaves out scripts with a src', () => {
    const html = `<script>${THEME_SCRIPT}</script><script src="/a.js"></script><SCRIPT type="text/javascript">b()</SCRIPT>`;
    expect(inlineScriptHashes(html)).toEqual([sha256(THEME_SCRIPT), sha256('b()')]);
  });
});

describe('Content-Security-Policy script-src', () => {
  const app = useTestApp({ config: { webDist } });

  it("allows this origin's files and the page's inline script by its hash, never any inline script", async () => {
    const t = app();
    const res = await t.get('/chats/abc');
    expect(res.text).toContain(THEME_SCRIPT);
    const sources = directive(res.headers.get('content-security-policy'), 'script-src');
    expect(sources).toEqual(["'self'", sha256(THEME_SCRIPT)]);
    expect(sources).not.toContain("'unsafe-inline'");
  });
});
