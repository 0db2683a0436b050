import type { ChatFile, FileType, Message } from '@parley/protocol';
import { FileAudio, File as FileIcon, FileImage, FileText, FileVideo, Play } from 'lucide-react';
import { AudioAttachment } from '../../../components/audio/audio-attachment';
import { type MessageId, t, useT } from '../../../lib/i18n/i18n';
import { marksPlayed, markVoicePlayed } from '../../../lib/messages/voice-played';
import { cn } from '../../../lib/ui/cn';
import { formatBytes } from '../lib/attachment-files';
import { fileHref, openPreview } from '../lib/preview-store';

const ICONS: Record<FileType, typeof FileIcon> = {
  image: FileImage,
  video: FileVideo,
  audio: FileAudio,
  pdf: FileText,
  text: FileText,
  other: FileIcon,
};

const KIND_LABEL: Record<FileType, MessageId> = {
  image: 'room.files.image',
  video: 'room.files.video',
  audio: 'room.files.audio',
  pdf: 'room.files.pdf',
  text: 'room.files.text',
  other: 'room.files.other',
};

export const fileIconOf = (type: FileType) => ICONS[type];
const nameOf = (file: ChatFile) => file.name || `${t(KIND_LABEL[file.type])} ${file.id}`;

/** The message the files came with, for a voice message's played mark. */
export interface AudioContext {
  message: Message;
  meId: number;
  privateChat: boolean;
}

/**
 * A message's files: image thumbnails, a video tile, a player for audio and a chip per document; each but audio
 * opens the preview.
 */
export function AttachmentList({
  files,
  own,
  audio,
}: {
  files: ChatFile[];
  own: boolean;
  audio?: AudioContext;
}) {
  const tr = useT();
  if (files.length === 0) return null;
  return (
    <ul className="mt-1 flex flex-col gap-1.5" aria-label={tr('room.files.label')}>
      {files.map((file) => (
        <li key={file.id}>
          <AttachmentTile file={file} own={own} audio={audio} />
        </li>
      ))}
    </ul>
  );
}

function AttachmentTile({ file, own, audio }: { file: ChatFile; own: boolean; audio?: AudioContext }) {
  const tr = useT();
  const name = nameOf(file);
  const open = () => openPreview(file);
  if (file.type === 'audio') {
    const marks = audio && marksPlayed(file, audio.message, audio.meId, audio.privateChat);
    return (
      <AudioAttachment
        file={file}
        own={own}
        privateChat={audio?.privateChat}
        onPlay={marks ? () => markVoicePlayed(audio.message.chatroom, audio.message.id) : undefined}
      />
    );
  }
  if (file.type === 'image') {
    return (
      <button
        type="button"
        onClick={open}
        aria-label={tr('room.files.openImage', { name })}
        className="block overflow-hidden rounded-lg bg-slate-200 dark:bg-slate-700"
      >
        {/* A fixed box, so the virtual list's row does not change height when the picture arrives. */}
        <img
          src={fileHref(file.thumbnail ?? file.file)}
          alt={name}
          loading="lazy"
          className="block h-44 w-56 max-w-full object-cover"
        />
      </button>
    );
  }
  if (file.type === 'video') {
    return (
      <button
        type="button"
        onClick={open}
        aria-label={tr('room.files.openVideo', { name })}
        className="flex h-32 w-56 max-w-full flex-col items-center justify-center gap-2 rounded-lg bg-slate-800 px-3 text-white"
      >
        <span className="inline-flex size-10 items-center justify-center rounded-full bg-white/20">
          <Play aria-hidden="true" className="size-5" />
        </span>
        <span translate="no" className="w-full truncate text-xs">
          {name}
        </span>
      </button>
    );
  }
  const Icon = ICONS[file.type];
  return (
    <button
      type="button"
      onClick={open}
      aria-label={tr('room.files.open', { name })}
      className={cn(
        'flex w-56 max-w-full items-center gap-2.5 rounded-lg px-2.5 py-2 text-start',
        own
          ? 'bg-white/15 hover:bg-white/25'
          : 'bg-slate-100 dark:bg-slate-800 hover:bg-slate-200 dark:hover:bg-slate-700',
      )}
    >
      <Icon aria-hidden="true" className="size-8 shrink-0" strokeWidth={1.5} />
      <span className="min-w-0">
        <span translate="no" className="block truncate text-sm font-medium">
          {name}
        </span>
        <span className={cn('block text-xs', own ? 'text-white/75' : 'text-slate-500 dark:text-slate-400')}>
          {tr(KIND_LABEL[file.type])}
          {typeof file.size === 'number' ? ` · ${formatBytes(file.size)}` : ''}
        </span>
      </span>
    </button>
  );
}
