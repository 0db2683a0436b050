import { AUDIO_SPEEDS, type ChatFile } from '@parley/protocol';
import { Pause, Play } from 'lucide-react';
import { type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from 'react';
import { fileHref } from '../../lib/http/file-href';
import { useT } from '../../lib/i18n/i18n';
import { intlLocale } from '../../lib/text/locale-format';
import { cn } from '../../lib/ui/cn';
import { barHeights, clockOf, seekByKey, spokenLength } from './audio-format';

// The audio player of voice messages and audio files (loaded with the first one shown: audio-attachment.tsx):
// play and pause, the waveform as bars that fill as it plays and take a click or the arrow keys to seek, the
// time played and the whole, and the speed (1×, 1.5×, 2×). One plays at a time on the page.

/** A voice message, or a file by its name. */
export interface AudioName {
  kind: 'voice' | 'file';
  name: string;
}

export interface AudioPlayerProps {
  file: ChatFile;
  /** Drawn on one's own (brand-coloured) bubble. */
  own: boolean;
  /** What the controls name: a voice message or the file. */
  label: AudioName;
  /** The first time it starts playing (a voice message's played mark). */
  onPlay?: () => void;
}

/** The player playing now: another that starts pauses it. */
let playing: HTMLAudioElement | null = null;

export default function AudioPlayer({ file, own, label, onPlay }: AudioPlayerProps) {
  const t = useT();
  const audio = useRef<HTMLAudioElement>(null);
  const [paused, setPaused] = useState(true);
  const [positionMs, setPositionMs] = useState(0);
  const [loadedMs, setLoadedMs] = useState<number | null>(null);
  const [speed, setSpeed] = useState<number>(AUDIO_SPEEDS[0]);
  const started = useRef(false);
  // A recording made live (WebM from MediaRecorder) tells the browser no length until played through: the
  // length the server kept comes first.
  const totalMs = file.duration_ms ?? loadedMs;

  useEffect(() => {
    const el = audio.current;
    if (!el) return;
    let frame = 0;
    // While playing, the bars follow each frame (timeupdate comes only four times a second).
    const follow = () => {
      setPositionMs(el.currentTime * 1000);
      if (!el.paused) frame = requestAnimationFrame(follow);
    };
    const onPlaying = () => {
      if (playing && playing !== el) playing.pause();
      playing = el;
      setPaused(false);
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(follow);
    };
    const onPause = () => {
      setPaused(true);
      cancelAnimationFrame(frame);
      setPositionMs(el.currentTime * 1000);
      if (playing === el) playing = null;
    };
    const onEnded = () => {
      onPause();
      el.currentTime = 0;
      setPositionMs(0);
    };
    const onMeta = () => {
      if (Number.isFinite(el.duration)) setLoadedMs(el.duration * 1000);
    };
    el.addEventListener('play', onPlaying);
    el.addEventListener('pause', onPause);
    el.addEventListener('ended', onEnded);
    el.addEventListener('loadedmetadata', onMeta);
    el.addEventListener('durationchange', onMeta);
    return () => {
      cancelAnimationFrame(frame);
      el.removeEventListener('play', onPlaying);
      el.removeEventListener('pause', onPause);
      el.removeEventListener('ended', onEnded);
      el.removeEventListener('loadedmetadata', onMeta);
      el.removeEventListener('durationchange', onMeta);
      if (playing === el) {
        el.pause();
        playing = null;
      }
    };
  }, []);

  const toggle = () => {
    const el = audio.current;
    if (!el) return;
    if (!el.paused) return el.pause();
    el.playbackRate = speed;
    void el.play().catch(() => setPaused(true));
    if (!started.current) {
      started.current = true;
      onPlay?.();
    }
  };

  const seek = (ms: number) => {
    const el = audio.current;
    if (!el) return;
    el.currentTime = ms / 1000;
    setPositionMs(ms);
  };

  const onBarsPointer = (event: PointerEvent<HTMLDivElement>) => {
    if (!totalMs) return;
    const box = event.currentTarget.getBoundingClientRect();
    const share = Math.max(0, Math.min(1, (event.clientX - box.left) / box.width));
    seek(share * totalMs);
  };
  const onBarsKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!totalMs) return;
    const to = seekByKey(event.key, positionMs, totalMs);
    if (to === null) return;
    event.preventDefault();
    seek(to);
  };

  const nextSpeed = () => {
    const next = AUDIO_SPEEDS[(AUDIO_SPEEDS.indexOf(speed as never) + 1) % AUDIO_SPEEDS.length] as number;
    setSpeed(next);
    if (audio.current) audio.current.playbackRate = next;
  };

  const bars = barHeights(file.waveform);
  const speedText = new Intl.NumberFormat(intlLocale()).format(speed);
  const share = totalMs ? Math.min(1, positionMs / totalMs) : 0;
  const filled = Math.round(share * bars.length);
  const showPosition = !paused || positionMs > 0;
  const muted = own ? 'text-white' : 'text-slate-600 dark:text-slate-300';

  return (
    <div className="flex w-64 max-w-full items-center gap-2.5" data-testid="audio-player">
      {/* biome-ignore lint/a11y/useMediaCaption: voice messages and music have no captions to offer. */}
      <audio ref={audio} src={fileHref(file.file)} preload="none" />
      <button
        type="button"
        onClick={toggle}
        aria-label={
          label.kind === 'voice'
            ? t(paused ? 'browse.audio.playVoice' : 'browse.audio.pauseVoice')
            : t(paused ? 'browse.audio.play' : 'browse.audio.pause', { name: label.name })
        }
        className={cn(
          'inline-flex size-10 shrink-0 items-center justify-center rounded-full transition-colors',
          own
            ? 'bg-white text-brand-700 hover:bg-white/90'
            : 'bg-brand-600 text-white hover:bg-brand-700 dark:bg-brand-500 dark:hover:bg-brand-400',
        )}
      >
        {paused ? (
          <Play aria-hidden="true" className="size-5 translate-x-0.5" fill="currentColor" />
        ) : (
          <Pause aria-hidden="true" className="size-5" fill="currentColor" />
        )}
      </button>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div
          role="slider"
          tabIndex={0}
          aria-label={
            label.kind === 'voice'
              ? t('browse.audio.positionVoice')
              : t('browse.audio.position', { name: label.name })
          }
          aria-valuemin={0}
          aria-valuemax={Math.round((totalMs ?? 0) / 1000)}
          aria-valuenow={Math.round(positionMs / 1000)}
          aria-valuetext={t('browse.audio.positionOf', {
            position: spokenLength(positionMs),
            length: spokenLength(totalMs),
          })}
          onPointerDown={onBarsPointer}
          onKeyDown={onBarsKey}
          className="flex h-7 cursor-pointer items-center gap-px rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current"
        >
          {bars.map((height, i) => (
            <span
              key={i}
              aria-hidden="true"
              style={{ height: `${Math.round(height * 100)}%` }}
              className={cn(
                'min-w-0 flex-1 rounded-full',
                i < filled
                  ? own
                    ? 'bg-white'
                    : 'bg-brand-600 dark:bg-brand-400'
                  : own
                    ? 'bg-white/45'
                    : 'bg-slate-300 dark:bg-slate-600',
              )}
            />
          ))}
        </div>
        <div className={cn('flex items-center gap-2 text-xs tabular-nums', muted)}>
          <span>{showPosition ? `${clockOf(positionMs)} / ${clockOf(totalMs)}` : clockOf(totalMs)}</span>
          <button
            type="button"
            onClick={nextSpeed}
            aria-label={t('browse.audio.speed', { speed: speedText })}
            className={cn(
              'ms-auto rounded-full px-1.5 py-0.5 text-xs font-semibold',
              own
                ? 'bg-brand-800 text-white hover:bg-brand-900'
                : 'bg-slate-100 hover:bg-slate-200 dark:bg-slate-800 dark:hover:bg-slate-700',
            )}
          >
            {t('browse.audio.speedValue', { speed: speedText })}
          </button>
        </div>
      </div>
    </div>
  );
}
