import { z } from 'zod';
import { dbIdSchema, messageSchema } from './chat';
import { MESSAGE_MAX_LENGTH } from './constants';

// Slash commands. The composer sends a text that starts with '/' here instead of as a chat_message frame:
//
//   POST /api/chats/{chat_id}/commands/ {command, args, client_id, thread_root?}   (or {text, client_id, …})
//     → 200 {visibility: 'chat', message}   a message was stored and fanned out as any other
//     → 200 {visibility: 'me', text}        shown only to the caller, in the room, and never stored
//     → an error in the API's usual shape ({detail} or {field: [...]}, 404 to anyone outside the chat)
//   GET /api/chats/{chat_id}/commands/ → {results: [ChatCommand]}: the built-ins the caller may run there, and
//     the commands of the bots that are members, for the composer's suggestions.
//
// A bot registers its commands (its owner, signed in): POST /api/bots/{id}/commands/ {command, description, url},
// GET lists, DELETE /api/bots/{id}/commands/{command}/. Typing `/command args` in a chat the bot is in POSTs
// {command, args, chat_id, user: {id, username, name}} to the url, signed as the bot's events are
// (X-Parley-Timestamp, X-Parley-Signature: v1=<hex HMAC-SHA256 of "{timestamp}.{raw body}">); its answer
// {text, visibility: 'chat' | 'me'} within COMMAND_TIMEOUT_MS is posted by the bot ('chat') or shown to the caller.

/** A command's name, without its slash: what follows '/' up to the first space. */
export const COMMAND_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;
/** How long a bot's command has to answer. */
export const COMMAND_TIMEOUT_MS = 3000;
/** The most commands one bot may register. */
export const MAX_BOT_COMMANDS = 50;
/** How a command's text reads: '/name' then its arguments. */
const COMMAND_TEXT_PATTERN = /^\/([A-Za-z0-9][A-Za-z0-9_-]{0,31})(?:\s+([\s\S]*))?$/;

export const COMMAND_TEXT = {
  unknown: (name: string) => `Unknown command: /${name}`,
  notCommand: 'A command starts with / and a name, such as /shrug.',
  timeout: 'The command did not answer in time.',
  badAnswer: (name: string) => `/${name} failed: its bot gave no usable answer.`,
  groupsOnly: (name: string) => `/${name} works in groups only.`,
  onlyAdmins: (name: string) => `Only the group admins can use /${name}.`,
  nobody: 'No one by that username.',
  meUsage: 'Write what you do after /me, such as /me waves.',
  topicUsage: 'Write the new topic after /topic.',
  inviteUsage: 'Name someone to invite, such as /invite @ada.',
  muteUsage: 'Mute for 1h, 8h or 1w, or leave it out to mute until you unmute.',
  topicSet: (topic: string) => `Topic set to: ${topic}`,
  invited: (names: string) => `Added ${names}.`,
  alreadyIn: 'They are already in this group.',
  left: 'You left the group.',
  muted: (label: string) => `Muted ${label}. Unmute in the chat's settings.`,
  onlyVisibleToYou: 'Only visible to you',
  /** The bot commands form. */
  badName: 'Letters, digits, - and _ only, at most 32, starting with a letter or digit.',
  builtinName: 'That is a built-in command.',
  badUrl: 'Enter an https address.',
  taken: 'This bot already has that command.',
  tooMany: `A bot can have at most ${MAX_BOT_COMMANDS} commands.`,
  notFound: 'Command not found.',
} as const;

/**
 * The ¯\_(ツ)_/¯ of /shrug. A word joiner (U+2060, invisible) stands between the backslash and the underscore, so
 * the message's formatting reads neither a backslash escape nor an italic there, and the stored text needs no
 * escapes to look right in the chat list, notifications and search.
 */
export const SHRUG = '¯\\\u2060_(ツ)_/¯';

/** /mute's durations; no argument mutes until unmuted. */
export const MUTE_ARGS = {
  '1h': { ms: 60 * 60 * 1000, label: 'for 1 hour' },
  '8h': { ms: 8 * 60 * 60 * 1000, label: 'for 8 hours' },
  '1w': { ms: 7 * 24 * 60 * 60 * 1000, label: 'for 1 week' },
} as const;

/** Where a built-in can run: everywhere, or in groups only (and for some, by its admins). */
export interface BuiltinCommand {
  command: string;
  usage: string;
  description: string;
  where: 'any' | 'group' | 'group-admin';
}

export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = [
  { command: 'me', usage: '/me <text>', description: 'Say what you are doing', where: 'any' },
  { command: 'shrug', usage: '/shrug [text]', description: 'Add ¯\\_(ツ)_/¯ to your message', where: 'any' },
  { command: 'topic', usage: '/topic <text>', description: "Set the group's topic", where: 'group-admin' },
  {
    command: 'invite',
    usage: '/invite @user',
    description: 'Add someone to the group',
    where: 'group-admin',
  },
  { command: 'leave', usage: '/leave', description: 'Leave the group', where: 'group' },
  { command: 'mute', usage: '/mute [1h|8h|1w]', description: 'Mute this chat', where: 'any' },
];

export const isBuiltinCommand = (name: string): boolean => BUILTIN_COMMANDS.some((c) => c.command === name);

/** '/Name rest' → {command: 'name', args: 'rest'}; null when the text is not a command. */
export function parseCommandText(text: string): { command: string; args: string } | null {
  const match = COMMAND_TEXT_PATTERN.exec(text.trim());
  if (!match) return null;
  return { command: (match[1] as string).toLowerCase(), args: (match[2] ?? '').trim() };
}

/** POST /api/chats/{chat_id}/commands/: a command and its arguments, or the text as typed. */
export const commandRunSchema = z
  .object({
    command: z.string().trim().max(33).optional(),
    args: z.string().max(MESSAGE_MAX_LENGTH).optional(),
    text: z
      .string()
      .max(MESSAGE_MAX_LENGTH + 40)
      .optional(),
    client_id: z.string().min(1, 'This field is required.').max(64),
    /** Run inside this thread: a message it posts is a reply there. */
    thread_root: dbIdSchema.optional(),
  })
  .transform((v, ctx) => {
    const parsed =
      v.command !== undefined
        ? parseCommandText(`/${v.command.replace(/^\//, '')} ${v.args ?? ''}`)
        : parseCommandText(v.text ?? '');
    if (!parsed) {
      ctx.addIssue({ code: 'custom', message: COMMAND_TEXT.notCommand, path: [] });
      return z.NEVER;
    }
    return {
      ...parsed,
      client_id: v.client_id,
      ...(v.thread_root !== undefined ? { thread_root: v.thread_root } : {}),
    };
  });
export type CommandRun = z.input<typeof commandRunSchema>;
export type CommandRequest = z.output<typeof commandRunSchema>;

/** What a command did: a message stored in the chat, or a line for the caller's eyes only. */
export const commandResultSchema = z.discriminatedUnion('visibility', [
  z.object({ visibility: z.literal('chat'), message: messageSchema }),
  z.object({ visibility: z.literal('me'), text: z.string() }),
]);
export type CommandResult = z.infer<typeof commandResultSchema>;

/** One suggestion of the composer: a built-in, or a bot's command (with the bot that answers it). */
export const chatCommandSchema = z.object({
  command: z.string(),
  usage: z.string(),
  description: z.string(),
  bot: z.object({ id: z.number().int(), username: z.string(), display_name: z.string() }).nullable(),
});
export type ChatCommand = z.infer<typeof chatCommandSchema>;
export const chatCommandListSchema = z.object({ results: z.array(chatCommandSchema) });
export type ChatCommandList = z.infer<typeof chatCommandListSchema>;

// A bot's commands.

/** POST /api/bots/{id}/commands/. Registering a name the bot already has replaces it. */
export const botCommandCreateSchema = z.object({
  command: z
    .string()
    .trim()
    .transform((s) => s.replace(/^\//, '').toLowerCase())
    .pipe(z.string().regex(COMMAND_NAME_PATTERN, COMMAND_TEXT.badName))
    .refine((s) => !isBuiltinCommand(s), COMMAND_TEXT.builtinName),
  description: z.string().trim().max(200, 'At most 200 characters.').optional().default(''),
  url: z.string().trim().min(1, 'This field is required.').max(2000),
});
export type BotCommandCreate = z.input<typeof botCommandCreateSchema>;

export const botCommandSchema = z.object({
  command: z.string(),
  description: z.string(),
  url: z.string(),
  created_at: z.string(),
});
export type BotCommand = z.infer<typeof botCommandSchema>;
export const botCommandListSchema = z.object({ results: z.array(botCommandSchema) });
export type BotCommandList = z.infer<typeof botCommandListSchema>;

/** What Parley POSTs to a command's url. */
export const botCommandCallSchema = z.object({
  command: z.string(),
  args: z.string(),
  chat_id: z.string(),
  user: z.object({ id: z.number().int(), username: z.string(), name: z.string() }),
});
export type BotCommandCall = z.infer<typeof botCommandCallSchema>;

/** What a bot answers a command with. */
export const botCommandAnswerSchema = z.object({
  text: z.string().trim().min(1).max(MESSAGE_MAX_LENGTH),
  /** Without it the answer is the caller's alone, as Slack's default. */
  visibility: z.enum(['chat', 'me']).optional().default('me'),
});
export type BotCommandAnswer = z.infer<typeof botCommandAnswerSchema>;
