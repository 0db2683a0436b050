// A room's first requests and code, asked for by the page itself before any of the app's code has arrived
// (the Lighthouse budget). On a phone the app's first script takes a good part of a second to download
// and run; a room opened from its address then waited that long before asking for its messages and for its own
// code. `startEarlyRequests` is inlined into index.html at build time (vite.config.ts) and runs while the page
// is parsed: on a room's address it starts the downloads of the room's code (modulepreload) and, signed in, the
// room's two first requests. The API client takes those answers instead of asking again (`takeEarlyResponse`).

export interface EarlyRequestsConfig {
  /** The API's base ('/api'), as the API client prefixes its paths. */
  apiBase: string;
  /** The storage key of the session's token (STORAGE_KEYS.token). */
  tokenKey: string;
  /** How many messages the room's newest page asks for (PAGE_SIZE). */
  pageSize: number;
  /** The room's code files, those the app's first script does not already bring. */
  modules: string[];
  /** Where on the window the requests are kept (EARLY_REQUESTS). */
  windowKey: string;
}

/** A request the page started, kept on the window until the API client takes it. */
export interface EarlyRequest {
  url: string;
  token: string;
  /** performance.now() when it was asked for. */
  at: number;
  response: Promise<Response>;
}

/** Where the page keeps its early requests. */
export const EARLY_REQUESTS = '__parleyEarlyRequests';

/**
 * Runs in the page as an inline script, so it must use nothing from outside its own body. The requests are the
 * API client's own, to the byte: the same URLs (room-queries.ts's getChat and getMessages), the same headers.
 */
export function startEarlyRequests(config: EarlyRequestsConfig): void {
  const match = /^\/(?:chats|groups)\/([^/]+)\/?$/.exec(window.location.pathname);
  if (!match) return;
  // After the first paint (the page's own loading state), which the requests' work would otherwise delay.
  requestAnimationFrame(() => setTimeout(() => start(match[1] as string)));
  function start(rawId: string) {
    // The app's own code got here first (its files cached): it asks for the room itself.
    if ((window as unknown as Record<string, unknown>)[config.windowKey]) return;
    let token: string | null = null;
    let chatId: string;
    try {
      token = window.localStorage.getItem(config.tokenKey) ?? window.sessionStorage.getItem(config.tokenKey);
      chatId = encodeURIComponent(decodeURIComponent(rawId));
    } catch {
      return;
    }
    // Signed out, the room's address leads to the login page: neither its code nor its data is wanted.
    if (!token) return;
    for (const href of config.modules) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    }
    const chat = `${config.apiBase}/chats/${chatId}/`;
    const at = performance.now();
    const headers = { Accept: 'application/json', Authorization: `Bearer ${token}` };
    const requests = [chat, `${chat}messages/?limit=${config.pageSize}`].map((url) => {
      const response = fetch(url, { method: 'GET', headers });
      // One the app never takes (a room opened from the persisted cache) must not report an unhandled failure.
      response.catch(() => {});
      return { url, token, at, response };
    });
    (window as unknown as Record<string, EarlyRequest[]>)[config.windowKey] = requests;
  }
}

/**
 * The app's own code is running (main.tsx): from now on it asks for what it needs, and a page's script that has
 * not started its requests yet starts none (with the app's files cached, the app can run before it would).
 */
export function appStarted(): void {
  const holder = window as unknown as Record<string, EarlyRequest[] | undefined>;
  holder[EARLY_REQUESTS] ??= [];
}

/** How long after the page's start an early answer may still stand for a request: past it, it is stale. */
export const EARLY_REQUEST_MS = 15_000;

/**
 * The answer to a GET the page already asked for with the same token, taken once; undefined when there is none
 * (or it is too old to stand for a request made now).
 */
export function takeEarlyResponse(url: string, token: string | null): Promise<Response> | undefined {
  const requests = (globalThis as Record<string, unknown>)[EARLY_REQUESTS] as EarlyRequest[] | undefined;
  if (!requests?.length || token === null) return undefined;
  const index = requests.findIndex((r) => r.url === url && r.token === token);
  if (index < 0) return undefined;
  const [early] = requests.splice(index, 1);
  return early && performance.now() - early.at < EARLY_REQUEST_MS ? early.response : undefined;
}
