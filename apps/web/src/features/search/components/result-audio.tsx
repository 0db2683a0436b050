import type { MessageSearchResult } from '@parley/protocol';
import { AudioAttachment } from '../../../components/audio/audio-attachment';
import { useT } from '../../../lib/i18n/i18n';
import { marksPlayed, markVoicePlayed } from '../../../lib/messages/voice-played';

/**
 * The audio of the result the arrow keys are on, playable without leaving the search: voice messages and audio
 * files. It sits outside the listbox (an option holds no controls); Tab reaches it from the search box.
 */
export function ResultAudio({ result, ownId }: { result: MessageSearchResult; ownId: number | undefined }) {
  const t = useT();
  const { message, chat } = result;
  const files = message.files.filter((f) => f.type === 'audio');
  if (files.length === 0 || message.is_deleted) return null;
  const mine = message.sender === ownId;
  const who = mine ? t('room.msg.you') : message.sender_name;
  return (
    <section
      aria-label={t('browse.search.audioLabel', { who, chat: chat.display_name })}
      data-testid="search-result-audio"
      className="flex flex-col gap-2 border-t border-slate-200 px-4 py-3 dark:border-slate-800"
    >
      <p className="truncate text-xs text-slate-600 dark:text-slate-400">
        <span translate="no" className="font-medium text-slate-800 dark:text-slate-200">
          {chat.display_name}
        </span>{' '}
        · {mine ? who : <span translate="no">{who}</span>}
      </p>
      {files.map((file) => (
        <AudioAttachment
          key={file.id}
          file={file}
          own={false}
          onPlay={
            ownId !== undefined && marksPlayed(file, message, ownId, chat.is_private)
              ? () => markVoicePlayed(chat.chat_id, message.id)
              : undefined
          }
        />
      ))}
    </section>
  );
}
