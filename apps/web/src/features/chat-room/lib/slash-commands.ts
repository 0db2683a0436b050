import { type ChatCommand, parseCommandText } from '@parley/protocol';

// What the composer does with a text that starts with '/': while the command's name is typed (the caret in it,
// no space yet) it suggests the chat's commands; sent, a command goes to the server instead of the room socket.
// '//' at the start sends the rest as a plain message ('//shrug' sends '/shrug').

/** The command name typed before the caret: the whole text so far is '/' and a name. */
export function commandQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const m = /^\/([a-z0-9_-]*)$/i.exec(before);
  if (!m) return null;
  return { start: 0, query: (m[1] ?? '').toLowerCase() };
}

/** The commands whose name starts with what is typed (then those that contain it), as listed. */
export function suggestCommands(commands: ChatCommand[], query: string): ChatCommand[] {
  const starts = commands.filter((c) => c.command.startsWith(query));
  const contains = query
    ? commands.filter((c) => !c.command.startsWith(query) && c.command.includes(query))
    : [];
  return [...starts, ...contains].slice(0, 12);
}

/** The text once a suggestion is picked: '/name ' with the caret after it, the rest of the text kept. */
export function insertCommand(text: string, caret: number, command: string): { text: string; caret: number } {
  const rest = text.slice(caret).replace(/^\S*\s?/, '');
  const head = `/${command} `;
  return { text: head + rest, caret: head.length };
}

export type ComposerSend = { kind: 'command'; text: string } | { kind: 'message'; text: string };

/** Whether a sent text runs a command or goes as a message ('//' escapes the slash). */
export function sendKindOf(text: string): ComposerSend {
  if (text.startsWith('//')) return { kind: 'message', text: text.slice(1) };
  return parseCommandText(text) ? { kind: 'command', text: text.trim() } : { kind: 'message', text };
}
