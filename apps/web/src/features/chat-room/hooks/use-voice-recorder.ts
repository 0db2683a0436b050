import { VOICE_MAX_DURATION_MS } from '@parley/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { t } from '../../../lib/i18n/i18n';
import { retryImport } from '../../../lib/ui/retry-import';
import type { Recording, RecordingSession } from '../components/voice-recorder';

// The microphone button's states, kept in the composer (small); the recorder's code loads at the first press.
// Hold to record and release to send, or click to start and click again to send; sliding away from the held
// button, Cancel or Escape throws the recording away. At 15 minutes it stops and is sent.

export const loadRecorder = () => retryImport(() => import('../components/voice-recorder'));

/** A recording shorter than this is taken for a slip of the finger. */
const SHORTEST_MS = 500;

export type RecorderState =
  | { phase: 'idle' }
  /** Waiting for the microphone (the browser may be asking the person). */
  | { phase: 'starting'; holding: boolean }
  | { phase: 'recording'; holding: boolean; startedAt: number };

export function useVoiceRecorder(onRecorded: (recording: Recording) => void) {
  const [state, setState] = useState<RecorderState>({ phase: 'idle' });
  /** What the live region says: each change of state, for those who do not see the strip. */
  const [announcement, setAnnouncement] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const session = useRef<RecordingSession | null>(null);
  /** What was decided while the microphone was being asked for: done once it answers. */
  const decided = useRef<'send' | 'cancel' | null>(null);
  /** Whether the button is still held (a click lets go while the microphone is still being asked for). */
  const held = useRef(false);
  const sent = useRef(onRecorded);
  sent.current = onRecorded;

  const finish = useCallback(async (how: 'send' | 'cancel') => {
    const current = session.current;
    if (!current) {
      decided.current = how;
      return;
    }
    session.current = null;
    setState({ phase: 'idle' });
    if (how === 'cancel') {
      current.cancel();
      setAnnouncement(t('room.voice.cancelled'));
      return;
    }
    setAnnouncement(t('room.voice.stopped'));
    const recording = await current.stop();
    if (recording.durationMs < SHORTEST_MS) {
      setAnnouncement(t('room.voice.tooShort'));
      return;
    }
    sent.current(recording);
    setAnnouncement(t('room.voice.sent'));
  }, []);

  const start = useCallback(
    async (holding: boolean) => {
      if (state.phase !== 'idle') return;
      setProblem(null);
      decided.current = null;
      held.current = holding;
      setState({ phase: 'starting', holding });
      try {
        const { startRecording } = await loadRecorder();
        session.current = await startRecording({
          maxMs: VOICE_MAX_DURATION_MS,
          onLimit: () => {
            setAnnouncement(t('room.voice.limit'));
            void finish('send');
          },
        });
      } catch (err) {
        setState({ phase: 'idle' });
        setProblem((err as Error).message);
        setAnnouncement((err as Error).message);
        return;
      }
      if (decided.current) return void finish(decided.current);
      setState({ phase: 'recording', holding: held.current, startedAt: performance.now() });
      setAnnouncement(held.current ? t('room.voice.nowHeld') : t('room.voice.nowClicked'));
    },
    [state.phase, finish],
  );

  /** A held button let go of before it was released to send: the recording goes on until sent or cancelled. */
  const letGo = useCallback(() => {
    held.current = false;
    setState((s) => (s.phase === 'idle' ? s : { ...s, holding: false }));
    if (session.current) setAnnouncement(t('room.voice.nowClicked'));
  }, []);

  // Escape cancels wherever the focus is, and leaving the room cancels.
  const active = state.phase !== 'idle';
  useEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        void finish('cancel');
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [active, finish]);
  useEffect(() => () => session.current?.cancel(), []);

  return {
    state,
    announcement,
    problem,
    dismissProblem: () => setProblem(null),
    start,
    letGo,
    send: () => void finish('send'),
    cancel: () => void finish('cancel'),
  };
}
