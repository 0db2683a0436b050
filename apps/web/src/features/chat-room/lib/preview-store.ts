import type { ChatFile } from '@parley/protocol';
import { create } from 'zustand';
import { API_BASE_URL } from '../../../lib/http/api-client';

// Which attachment the full-screen preview shows. One preview per room screen, outside the virtual list, so a
// row scrolling out of view (a new message arriving) cannot unmount an open preview.

export const usePreviewStore = create<{ file: ChatFile | null }>(() => ({ file: null }));

export const openPreview = (file: ChatFile) => usePreviewStore.setState({ file });
export const closePreview = () => usePreviewStore.setState({ file: null });

/** The server answers file URLs as paths; with an API on another origin (VITE_API_URL) they live there. */
export const fileHref = (url: string): string =>
  url.startsWith('/') && /^https?:\/\//.test(API_BASE_URL) ? new URL(url, API_BASE_URL).href : url;
