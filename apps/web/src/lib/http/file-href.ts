import { API_BASE_URL } from './api-client';

/** The server answers file URLs as paths; with an API on another origin (VITE_API_URL) they live there. */
export const fileHref = (url: string): string =>
  url.startsWith('/') && /^https?:\/\//.test(API_BASE_URL) ? new URL(url, API_BASE_URL).href : url;
