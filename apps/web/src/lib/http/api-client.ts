import { i18n } from '../i18n/i18n';
import { browserAuthStorage, readToken } from '../session/auth-storage';
import { ApiError } from './api-error';
import { takeEarlyResponse } from './early-requests';

// The fetch wrapper. Same origin '/api' unless VITE_API_URL names another base (e.g. http://host:8000/api).
export const API_BASE_URL = (import.meta.env?.VITE_API_URL || '/api').replace(/\/+$/, '');

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain object is sent as JSON; FormData goes as is, its content type left to the browser. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Skip the global 401 handling (the logout call, whose token may already be dead). */
  ignoreUnauthorized?: boolean;
}

export interface ApiClientOptions {
  baseUrl: string;
  getToken?: () => string | null;
  /** Told which token was refused: a 401 for a request sent without one, or with a token since replaced, is stale. */
  onUnauthorized?: (refusedToken: string | null) => void;
  fetchImpl?: typeof fetch;
}

async function parseBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const raw = await response.text();
  if (!raw) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export function createApiClient({ baseUrl, getToken, onUnauthorized, fetchImpl }: ApiClientOptions) {
  async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    // The language the app is shown in: a sign-up's mail is written in it.
    if (i18n.locale) headers['Accept-Language'] = i18n.locale;
    let body: BodyInit | undefined;
    if (options.body instanceof FormData) body = options.body;
    else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const token = getToken?.();
    if (token) headers.Authorization = `Bearer ${token}`;

    const url = `${baseUrl}${path}`;
    const method = options.method ?? 'GET';
    // A room's first requests may have been asked for by the page already (early-requests.ts).
    const early = method === 'GET' ? takeEarlyResponse(url, token ?? null) : undefined;
    let response: Response;
    try {
      response = await (early ??
        (fetchImpl ?? fetch)(url, {
          method,
          headers,
          body,
          signal: options.signal,
        }));
    } catch (cause) {
      if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
      throw new ApiError(0, null);
    }
    const parsed = await parseBody(response);
    if (!response.ok) {
      if (response.status === 401 && onUnauthorized && !options.ignoreUnauthorized)
        onUnauthorized(token ?? null);
      throw new ApiError(response.status, parsed);
    }
    return parsed as T;
  }

  return {
    request,
    get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(path, { ...options, method: 'GET' }),
    post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(path, { ...options, method: 'POST', body }),
    put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(path, { ...options, method: 'PUT', body }),
    delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(path, { ...options, method: 'DELETE' }),
  };
}

let unauthorizedHandler: (refusedToken: string | null) => void = () => {};

/** The app shell registers what a 401 does (clear the session, go to /login); lib code stays router-free. */
export function setUnauthorizedHandler(handler: (refusedToken: string | null) => void): void {
  unauthorizedHandler = handler;
}

/** For calls that need no credentials: login, sign-up, verification, password reset. */
export const publicApi = createApiClient({ baseUrl: API_BASE_URL });

/** Sends the bearer token from storage; a 401 for the token still stored ends the session. */
export const api = createApiClient({
  baseUrl: API_BASE_URL,
  getToken: () => readToken(browserAuthStorage),
  onUnauthorized: (refusedToken) => {
    // A request that left before a sign-out (or a new login) must not end the session that follows it.
    if (refusedToken !== null && refusedToken === readToken(browserAuthStorage))
      unauthorizedHandler(refusedToken);
  },
});
