import type { ChatFile } from '@parley/protocol';
import { Headphones, Play } from 'lucide-react';
import { Suspense } from 'react';
import { useT } from '../../lib/i18n/i18n';
import { cn } from '../../lib/ui/cn';
import { lazyRetry } from '../../lib/ui/retry-import';
import { clockOf } from './audio-format';
import type { AudioName } from './audio-player';

// A voice message or an audio file where it is shown (the message list, search): the player, whose code loads
// with the first one on screen, and under a voice message in a private chat whether it was played.

const AudioPlayer = lazyRetry(() => import('./audio-player'));

/**
 * What the player's controls are named after: a voice message, or the file (its name, else 'audio file'); the
 * values of the `browse.audio.*` messages that name it.
 */
export const audioLabel = (file: ChatFile, tr: ReturnType<typeof useT>): AudioName => ({
  kind: file.kind === 'voice' ? 'voice' : 'file',
  name: file.name ?? tr('browse.audio.audioFile'),
});

export interface AudioAttachmentProps {
  file: ChatFile;
  own: boolean;
  /**
   * In a private chat: the sender sees 'Played' once the other person played it; the other person sees an
   * unplayed voice message marked, and playing it calls `onPlay`.
   */
  privateChat?: boolean;
  onPlay?: () => void;
}

export function AudioAttachment({ file, own, privateChat, onPlay }: AudioAttachmentProps) {
  const t = useT();
  const label = audioLabel(file, t);
  const voice = file.kind === 'voice';
  const status = voice && privateChat ? file.played : undefined;
  return (
    <div className="flex flex-col gap-1">
      {!voice && file.name && (
        <span
          translate="no"
          className={cn(
            'truncate text-xs font-medium',
            own ? 'text-white' : 'text-slate-700 dark:text-slate-200',
          )}
        >
          {file.name}
        </span>
      )}
      <Suspense fallback={<PlayerPlaceholder file={file} own={own} />}>
        <AudioPlayer file={file} own={own} label={label} onPlay={onPlay} />
      </Suspense>
      {status === true && own && (
        <span data-testid="voice-played" className="flex items-center gap-1 text-xs text-white">
          <Headphones aria-hidden="true" className="size-3.5" />
          {t('browse.audio.played')}
        </span>
      )}
      {status === false && !own && (
        <span
          data-testid="voice-unplayed"
          className="flex items-center gap-1.5 text-xs text-brand-700 dark:text-brand-300"
        >
          <span aria-hidden="true" className="size-2 rounded-full bg-brand-600 dark:bg-brand-400" />
          {t('browse.audio.notPlayed')}
        </span>
      )}
    </div>
  );
}

/** The player's place while its code loads: the same size, so the list does not move when it arrives. */
function PlayerPlaceholder({ file, own }: { file: ChatFile; own: boolean }) {
  return (
    <div className="flex w-64 max-w-full items-center gap-2.5" aria-hidden="true">
      <span
        className={cn(
          'inline-flex size-10 shrink-0 items-center justify-center rounded-full',
          own ? 'bg-white/70 text-brand-700' : 'bg-brand-600/60 text-white',
        )}
      >
        <Play className="size-5 translate-x-0.5" />
      </span>
      <span className="flex min-w-0 flex-1 flex-col gap-1">
        <span className={cn('h-7 rounded', own ? 'bg-white/20' : 'bg-slate-200 dark:bg-slate-700')} />
        <span
          className={cn('text-xs tabular-nums', own ? 'text-white' : 'text-slate-600 dark:text-slate-300')}
        >
          {clockOf(file.duration_ms)}
        </span>
      </span>
    </div>
  );
}
