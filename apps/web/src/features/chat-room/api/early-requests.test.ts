import { STORAGE_KEYS } from '@parley/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EARLY_REQUESTS } from '../../../lib/http/early-requests';
import { createMemoryStorage } from '../../../lib/session/memory-storage';
import { PAGE_SIZE } from '../lib/page-size';

// index.html's early script (lib/http/early-requests.ts, inlined by vite.config.ts) against the room's own requests:
// what the page asks for must be what the room asks for, to the byte, or the room would ask again.

const CONFIG = {
  apiBase: '/api',
  tokenKey: STORAGE_KEYS.token,
  pageSize: PAGE_SIZE,
  modules: ['/assets/room.js'],
  windowKey: EARLY_REQUESTS,
};

let fetches: { url: string; headers: Record<string, string> }[];
let links: { rel: string; href: string; crossOrigin: string }[];
let now: number;

/** A page loaded afresh: nothing kept on its window yet. */
function page(pathname: string, token: string | null) {
  delete (globalThis as Record<string, unknown>)[EARLY_REQUESTS];
  const local = createMemoryStorage();
  if (token) local.setItem(STORAGE_KEYS.token, token);
  vi.stubGlobal('window', globalThis);
  vi.stubGlobal('location', { pathname });
  vi.stubGlobal('localStorage', local);
  vi.stubGlobal('sessionStorage', createMemoryStorage());
  vi.stubGlobal('document', {
    createElement: () => ({}),
    head: { appendChild: (link: (typeof links)[number]) => links.push(link) },
  });
  vi.stubGlobal('requestAnimationFrame', (run: () => void) => run());
}

/**
 * The page's script, then the app's modules as the page loads them after it (the session read from storage);
 * `appFirst`: the app's code ran before the script's requests were due (its files cached).
 */
async function load(appFirst = false) {
  const { appStarted, startEarlyRequests } = await import('../../../lib/http/early-requests');
  startEarlyRequests(CONFIG);
  if (appFirst) appStarted();
  await new Promise((resolve) => setTimeout(resolve));
  if (!appFirst) appStarted();
  return import('./room-queries');
}

beforeEach(() => {
  vi.resetModules();
  fetches = [];
  links = [];
  now = 1000;
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: { headers: Record<string, string> }) => {
      fetches.push({ url, headers: init.headers });
      const body = url.includes('/messages/') ? [{ id: 1, body: 'hi' }] : { chat_id: 'ab3' };
      return new Response(JSON.stringify(body), { status: 200 });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the page’s early requests', () => {
  it('asks for the room’s code, detail and newest page, which the room then takes instead of asking again', async () => {
    page('/chats/ab3', 'tok-1');
    const { getChat, getMessages } = await load();
    expect(links).toEqual([{ rel: 'modulepreload', href: '/assets/room.js', crossOrigin: '' }]);
    expect(fetches.map((f) => f.url)).toEqual([
      '/api/chats/ab3/',
      `/api/chats/ab3/messages/?limit=${PAGE_SIZE}`,
    ]);
    expect(fetches[0]!.headers).toEqual({ Accept: 'application/json', Authorization: 'Bearer tok-1' });

    await expect(getChat('ab3')).resolves.toEqual({ chat_id: 'ab3' });
    await expect(getMessages('ab3')).resolves.toMatchObject([{ id: 1, body: 'hi' }]);
    expect(fetches).toHaveLength(2);
    // Taken once: the next visit to the room asks the server.
    await getChat('ab3');
    expect(fetches).toHaveLength(3);
  });

  it('serves a group’s address the same way', async () => {
    page('/groups/g7/', 'tok-1');
    const { getChat } = await load();
    await getChat('g7');
    expect(fetches.map((f) => f.url)).toEqual([
      '/api/chats/g7/',
      `/api/chats/g7/messages/?limit=${PAGE_SIZE}`,
    ]);
  });

  it('asks for nothing off a room’s address, and for no data signed out', async () => {
    page('/chats', 'tok-1');
    await load();
    page('/chats/ab3/settings', 'tok-1');
    await load();
    expect(fetches).toEqual([]);
    expect(links).toEqual([]);

    page('/chats/ab3', null);
    await load();
    expect(fetches).toEqual([]);
    expect(links).toEqual([]);
  });

  it('starts nothing once the app’s own code runs first: the room asks once, itself', async () => {
    page('/chats/ab3', 'tok-1');
    const { getChat, getMessages } = await load(true);
    expect(fetches).toEqual([]);
    expect(links).toEqual([]);
    await getChat('ab3');
    await getMessages('ab3');
    expect(fetches.map((f) => f.url)).toEqual([
      '/api/chats/ab3/',
      `/api/chats/ab3/messages/?limit=${PAGE_SIZE}`,
    ]);
  });

  it('never stands for a request with another token, nor for one made long after the page loaded', async () => {
    page('/chats/ab3', 'tok-1');
    const { getChat, getMessages } = await load();
    localStorage.setItem(STORAGE_KEYS.token, 'tok-2');
    await getChat('ab3');
    expect(fetches.at(-1)).toMatchObject({
      url: '/api/chats/ab3/',
      headers: { Authorization: 'Bearer tok-2' },
    });

    localStorage.setItem(STORAGE_KEYS.token, 'tok-1');
    now += 60_000;
    await getMessages('ab3');
    expect(fetches).toHaveLength(4);
  });
});
