import type { ChatCommand } from '@parley/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { serverErrorOr } from '../../../lib/http/api-error';
import { t } from '../../../lib/i18n/i18n';
import { commandRan, runCommand, useChatCommands } from '../api/commands';
import { notesOf, useEphemeralNotes } from '../lib/ephemeral-notes';
import { commandQuery, insertCommand, suggestCommands } from '../lib/slash-commands';
import { useSuggestionList } from './use-suggestion-list';

// The composer's slash commands: suggestions while '/name' is typed (use-suggestion-list: ↑/↓, Enter or Tab,
// Escape), running one when sent, and the answers meant for this person alone, shown in the room until
// dismissed.

/** Where the composer's commands run: its chat, and the thread when it is a thread's composer. */
export interface CommandPlace {
  chatId: string;
  threadRoot?: number;
}

export type { EphemeralNote } from '../lib/ephemeral-notes';

export function useSlashCommands(
  place: CommandPlace | undefined,
  text: string,
  caret: number,
  apply: (next: { text: string; caret: number }) => void,
) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const query = place ? commandQuery(text, caret) : null;
  const list = useChatCommands(place?.chatId ?? '', query !== null);
  const candidates = useMemo(
    () => (query && list.data ? suggestCommands(list.data.results, query.query) : []),
    [list.data, query?.query, query],
  );
  const suggestions = useSuggestionList<ChatCommand>(query, candidates, (c) =>
    apply(insertCommand(text, caret, c.command)),
  );
  const placeKey = place ? `${place.chatId}:${place.threadRoot ?? ''}` : '';
  const notes = useEphemeralNotes((s) => notesOf(s, placeKey));
  const addNote = useEphemeralNotes((s) => s.add);
  const dismissNote = useEphemeralNotes((s) => s.dismiss);
  /** Why the command typed could not run: shown while that text stays in the box. */
  const [failed, setFailed] = useState<{ text: string; message: string } | null>(null);
  const [running, setRunning] = useState<string | null>(null);

  /** Runs the command typed; true when the server took it (the text may go), false to keep the text. */
  const run = async (typed: string): Promise<boolean> => {
    if (!place) return false;
    const name = typed.slice(1).split(/\s/, 1)[0]?.toLowerCase() ?? '';
    setFailed(null);
    setRunning(name);
    try {
      const result = await runCommand(place.chatId, typed, place.threadRoot);
      const left = name === 'leave' && result.visibility === 'me';
      commandRan(queryClient, place.chatId, left);
      if (result.visibility === 'me') addNote(placeKey, { command: name, text: result.text });
      if (left) void navigate('/chats');
      return true;
    } catch (err) {
      setFailed({ text: typed, message: serverErrorOr(err, t('browse.room.commandFailed')) });
      return false;
    } finally {
      setRunning(null);
    }
  };

  return {
    suggestions,
    notes,
    error: failed && failed.text === text.trim() ? failed.message : null,
    running,
    run,
    dismiss: (id: number) => dismissNote(placeKey, id),
  };
}

export type SlashCommands = ReturnType<typeof useSlashCommands>;
export type CommandSuggestions = SlashCommands['suggestions'];
