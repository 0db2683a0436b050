import { t } from '../../../lib/i18n/i18n';

/** The path of a page of the directory: `q` and `cursor` only when there are some. */
export function channelsPath(q: string, cursor?: string): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (cursor) params.set('cursor', cursor);
  return params.size > 0 ? `/channels/?${params}` : '/channels/';
}

/**
 * What screen readers hear of a search: 'Searching...' while it runs, then how many channels it found ('shown'
 * when more pages follow); nothing for the unsearched directory.
 */
export function directoryStatus(state: {
  q: string;
  searching: boolean;
  count: number;
  more: boolean;
}): string {
  if (state.searching) return t('groups.channels.searching');
  if (!state.q) return '';
  return t(state.more ? 'groups.channels.foundMore' : 'groups.channels.found', {
    count: state.count,
    q: state.q,
  });
}
