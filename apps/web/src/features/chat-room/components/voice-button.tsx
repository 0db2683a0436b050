import { Loader2, Mic, SendHorizontal } from 'lucide-react';
import { type PointerEvent, useRef } from 'react';
import { useT } from '../../../lib/i18n/i18n';
import type { useVoiceRecorder } from '../hooks/use-voice-recorder';

/** Moving a held press this far from where it began cancels the recording. */
const SLIDE_CANCEL_PX = 90;
/** A press shorter than this is a click: the recording goes on until the button is pressed again. */
const CLICK_MS = 350;

/**
 * The composer's microphone, beside the send button while there is nothing typed: held, it records until
 * released (sliding away cancels); clicked, or pressed with the keyboard, it starts, and sends at the next
 * press. While recording it takes the send button's place.
 */
export function VoiceButton({ recorder }: { recorder: ReturnType<typeof useVoiceRecorder> }) {
  const t = useT();
  const press = useRef<{ at: number; x: number; y: number; started: boolean } | null>(null);
  const { state } = recorder;
  const active = state.phase !== 'idle';

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    press.current = { at: performance.now(), x: event.clientX, y: event.clientY, started: !active };
    if (!active) void recorder.start(true);
  };
  const onPointerMove = (event: PointerEvent<HTMLButtonElement>) => {
    const p = press.current;
    if (!p?.started) return;
    if (Math.hypot(event.clientX - p.x, event.clientY - p.y) > SLIDE_CANCEL_PX) {
      press.current = null;
      recorder.cancel();
    }
  };
  const onPointerUp = () => {
    const p = press.current;
    press.current = null;
    if (!p) return;
    if (p.started && performance.now() - p.at < CLICK_MS) recorder.letGo();
    else recorder.send();
  };

  const label =
    state.phase === 'idle'
      ? t('room.voice.record')
      : state.phase === 'starting'
        ? t('room.voice.starting')
        : t('room.voice.send');
  return (
    <button
      type="button"
      aria-label={label}
      title={state.phase === 'idle' ? t('room.voice.hold') : label}
      data-testid="voice-button"
      data-recording={state.phase === 'recording' || undefined}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => {
        if (press.current?.started && state.phase !== 'idle') recorder.cancel();
        press.current = null;
      }}
      // Pointer presses are handled above; a click without a pointer is the keyboard's (Enter, Space).
      onClick={(event) => {
        if (event.detail !== 0) return;
        if (!active) void recorder.start(false);
        else recorder.send();
      }}
      onContextMenu={(event) => event.preventDefault()}
      className={
        active
          ? 'inline-flex size-10 shrink-0 touch-none items-center justify-center rounded-lg bg-red-600 text-white shadow-sm transition-colors select-none hover:bg-red-700'
          : 'inline-flex size-10 shrink-0 touch-none items-center justify-center rounded-lg text-slate-600 transition-colors select-none hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-slate-100'
      }
    >
      {state.phase === 'starting' ? (
        <Loader2 aria-hidden="true" className="size-5 animate-spin" />
      ) : state.phase === 'recording' ? (
        <SendHorizontal aria-hidden="true" className="size-5 rtl:-scale-x-100" />
      ) : (
        <Mic aria-hidden="true" className="size-5" />
      )}
    </button>
  );
}
