import type { ChatFile } from '@parley/protocol';
import { create } from 'zustand';

// Which attachment the full-screen preview shows. One preview per room screen, outside the virtual list, so a
// row scrolling out of view (a new message arriving) cannot unmount an open preview.

export const usePreviewStore = create<{ file: ChatFile | null }>(() => ({ file: null }));

export const openPreview = (file: ChatFile) => usePreviewStore.setState({ file });
export const closePreview = () => usePreviewStore.setState({ file: null });

/** Where a file's URL is fetched from (shared with the audio player, lib/http/file-href.ts). */
export { fileHref } from '../../../lib/http/file-href';
