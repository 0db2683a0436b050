import { VOICE_WAVEFORM_LENGTH } from '@parley/protocol';
import { t } from '../../lib/i18n/i18n';

// What the audio player draws from numbers: its clock and its bars.

/** '0:07', '2:30', '1:02:05' from milliseconds; '--:--' while the length is unknown. */
export function clockOf(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '--:--';
  const total = Math.floor(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** What a screen reader hears of a length: '7 seconds', '2 minutes 30 seconds', in the reader's language. */
export function spokenLength(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return t('browse.audio.unknownLength');
  const total = Math.round(ms / 1000);
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  if (minutes === 0) return t('browse.audio.seconds', { count: seconds });
  return seconds === 0
    ? t('browse.audio.minutes', { count: minutes })
    : t('browse.audio.minutesSeconds', { minutes, seconds });
}

/**
 * The bars' heights, 0..1, one per waveform value (at least a sliver, so silence still shows where it is). A file
 * without a waveform (audio not recorded in Parley) gets even bars: a plain progress line.
 */
export function barHeights(waveform: readonly number[] | undefined): number[] {
  if (!waveform || waveform.length === 0) return Array(VOICE_WAVEFORM_LENGTH).fill(0.35);
  return waveform.map((v) => Math.max(0.08, Math.min(1, v / 255)));
}

/** The position, in ms, that a key takes a seek bar to; null for a key it does not use. */
export function seekByKey(key: string, positionMs: number, totalMs: number): number | null {
  const step = totalMs > 60_000 ? 10_000 : 5_000;
  const clamp = (ms: number) => Math.max(0, Math.min(totalMs, ms));
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(positionMs + step);
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(positionMs - step);
    case 'PageUp':
      return clamp(positionMs + step * 3);
    case 'PageDown':
      return clamp(positionMs - step * 3);
    case 'Home':
      return 0;
    case 'End':
      return totalMs;
    default:
      return null;
  }
}
