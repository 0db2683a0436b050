import { createHash } from 'node:crypto';
import {
  BUILTIN_COMMANDS,
  type ChatCommand,
  COMMAND_TEXT,
  type CommandRequest,
  type CommandResult,
  displayNameOf,
  isAdminRole,
  SOCKET_ERRORS,
} from '@parley/protocol';
import { BadRequestError, TooManyRequestsError } from '../../platform/errors';
import type { RateLimiter } from '../../platform/rate-limit';
import { MESSAGE_WINDOW_MS, messageLimitKey } from '../../platform/rate-limit-policy';
import type { BotsService } from '../bots/bots.service';
import { callBotCommand } from './bot-command-call';
import type { BotCommandsService } from './bot-commands.service';
import { BUILTINS, type BuiltinDeps, type CommandCaller } from './builtin-commands';

interface Deps extends BuiltinDeps {
  botCommands: Pick<BotCommandsService, 'inChat'>;
  bots: Pick<BotsService, 'signedHeaders'>;
  /** The per-person message limit: a command counts as a message sent. */
  messageLimiter: RateLimiter;
  messageRateLimit: number;
  allowPrivateHosts: boolean;
}

/**
 * A bot's message answering a command gets a client_id of its own, made from the caller's: a retried command
 * finds the message stored the first time instead of posting it twice.
 */
const answerClientId = (userId: number, clientId: string): string =>
  `cmd-${createHash('sha256').update(`${userId}:${clientId}`).digest('hex').slice(0, 40)}`;

/**
 * Slash commands in a chat: members only (404 to anyone else, as the chat's other routes), limited as sending
 * is. A built-in is a call of the service its screen uses; any other name is the command of a bot in the chat,
 * POSTed to the bot, whose answer is posted by the bot ('chat') or shown to the caller alone ('me').
 */
export class CommandsService {
  constructor(private readonly deps: Deps) {}

  async run(userId: number, chatId: string, req: CommandRequest): Promise<CommandResult> {
    const caller = await this.caller(userId, chatId);
    const limit = await this.deps.messageLimiter.hit(
      messageLimitKey(userId),
      this.deps.messageRateLimit,
      MESSAGE_WINDOW_MS,
    );
    if (!limit.allowed) throw new TooManyRequestsError(limit.retryAfterSeconds, SOCKET_ERRORS.rateLimited);
    const builtin = BUILTINS[req.command];
    if (builtin && Object.hasOwn(BUILTINS, req.command)) return builtin(this.deps, caller, req);
    return this.runBotCommand(userId, chatId, req);
  }

  /** What the composer suggests: the built-ins the caller may run here, then the chat's bots' commands. */
  async list(userId: number, chatId: string): Promise<ChatCommand[]> {
    const caller = await this.caller(userId, chatId);
    const builtins = BUILTIN_COMMANDS.filter(
      (c) => c.where === 'any' || (!caller.isPrivate && (c.where === 'group' || isAdminRole(caller.role))),
    ).map((c) => ({ command: c.command, usage: c.usage, description: c.description, bot: null }));
    const rows = await this.deps.botCommands.inChat(chatId);
    const cards = new Map(
      (await this.deps.users.cards([...new Set(rows.map((r) => r.bot_id))])).map((c) => [c.id, c]),
    );
    const seen = new Set(builtins.map((c) => c.command));
    const fromBots: ChatCommand[] = [];
    for (const row of rows) {
      const card = cards.get(row.bot_id);
      if (!card || seen.has(row.command)) continue;
      seen.add(row.command);
      fromBots.push({
        command: row.command,
        usage: `/${row.command}`,
        description: row.description,
        bot: { id: card.id, username: card.username, display_name: displayNameOf(card) },
      });
    }
    return [...builtins, ...fromBots];
  }

  private async caller(userId: number, chatId: string): Promise<CommandCaller> {
    const { chat, member } = await this.deps.chats.requireMember(userId, chatId);
    return { userId, chatId, isPrivate: chat.is_private === 1, role: member.role };
  }

  private async runBotCommand(userId: number, chatId: string, req: CommandRequest): Promise<CommandResult> {
    const [target] = await this.deps.botCommands.inChat(chatId, req.command);
    if (!target) throw new BadRequestError(COMMAND_TEXT.unknown(req.command));
    const [card] = await this.deps.users.cards([userId]);
    const answer = await callBotCommand(
      { botId: target.bot_id, url: target.url },
      {
        command: req.command,
        args: req.args,
        chat_id: chatId,
        user: { id: userId, username: card?.username ?? '', name: card ? displayNameOf(card) : '' },
      },
      { bots: this.deps.bots, allowPrivateHosts: this.deps.allowPrivateHosts },
    );
    if (!answer) return { visibility: 'me', text: COMMAND_TEXT.timeout };
    if (answer.visibility === 'me') return { visibility: 'me', text: answer.text };
    const { message } = await this.deps.messages.send(target.bot_id, chatId, {
      body: answer.text,
      client_id: answerClientId(userId, req.client_id),
      ...(req.thread_root !== undefined ? { thread_root: req.thread_root } : {}),
    });
    return { visibility: 'chat', message };
  }
}
