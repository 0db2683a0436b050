import { MESSAGE_MAX_LENGTH } from '@parley/protocol';
import { t } from '../../../lib/i18n/i18n';

// How long the composer's text is against the server's limit (1..4096 characters after trimming, counted as
// the server counts them: UTF-16 code units). The count shows near the limit; past it the send is refused.

/** The count shows from this many characters on. */
export const COUNT_FROM = MESSAGE_MAX_LENGTH - 500;

export function messageLength(text: string): { count: number; show: boolean; over: number } {
  const count = text.trim().length;
  return { count, show: count >= COUNT_FROM, over: Math.max(0, count - MESSAGE_MAX_LENGTH) };
}

/** The refusal, in the protocol's words (in English), with how much to cut. */
export const tooLongText = (over: number): string =>
  t('room.composer.tooLong', { max: MESSAGE_MAX_LENGTH, count: over });
