import {
  type BotCommand,
  type BotCommandCreate,
  botCommandCreateSchema,
  COMMAND_NAME_PATTERN,
  COMMAND_TEXT,
  MAX_BOT_COMMANDS,
} from '@parley/protocol';
import type { Db } from '../../db/database';
import { FieldsError, NotFoundError } from '../../platform/errors';
import { parseBody } from '../../platform/validate';
import { acceptableBotUrl, type BotsService } from '../bots/bots.service';
import * as repo from './commands.repo';

interface Deps {
  db: Db;
  /** Whose bot it is: a bot not the caller's is not found. */
  bots: Pick<BotsService, 'view'>;
  /** http and loopback or private addresses allowed (tests only: EVENTS_ALLOW_PRIVATE_HOSTS). */
  allowPrivateHosts: boolean;
}

const toCommand = (row: repo.BotCommandRow): BotCommand => ({
  command: row.command,
  description: row.description,
  url: row.url,
  created_at: row.created_at,
});

/** The commands a bot's owner registers for it: a name, what it does, and the address that answers it. */
export class BotCommandsService {
  constructor(private readonly deps: Deps) {}

  async list(ownerId: number, botId: number): Promise<BotCommand[]> {
    await this.deps.bots.view(ownerId, botId);
    return (await repo.commandsOf(this.deps.db, botId)).map(toCommand);
  }

  /** Registers a command (a name the bot already has is replaced); its address is checked as events_url's. */
  async register(ownerId: number, botId: number, body: unknown): Promise<BotCommand> {
    await this.deps.bots.view(ownerId, botId);
    const input = parseBody(botCommandCreateSchema, body as BotCommandCreate);
    const url = await acceptableBotUrl(input.url, this.deps.allowPrivateHosts);
    if (!url) throw new FieldsError({ url: [COMMAND_TEXT.badUrl] });
    const existing = await repo.commandsOf(this.deps.db, botId);
    if (!existing.some((c) => c.command === input.command) && existing.length >= MAX_BOT_COMMANDS)
      throw new FieldsError({ command: [COMMAND_TEXT.tooMany] });
    const row = {
      bot_id: botId,
      command: input.command,
      description: input.description,
      url,
      created_at: new Date().toISOString(),
    };
    await repo.upsertCommand(this.deps.db, row);
    const stored = (await repo.commandsOf(this.deps.db, botId)).find((c) => c.command === input.command);
    return toCommand(stored ?? { ...row, id: 0 });
  }

  async remove(ownerId: number, botId: number, command: string): Promise<void> {
    await this.deps.bots.view(ownerId, botId);
    const name = command.replace(/^\//, '').toLowerCase();
    // A name no command can have names none (and never reaches the database: PostgreSQL refuses a NUL).
    if (!COMMAND_NAME_PATTERN.test(name) || !(await repo.deleteCommand(this.deps.db, botId, name)))
      throw new NotFoundError(COMMAND_TEXT.notFound);
  }

  /** The commands of a chat's member bots (of one name, when given), the oldest bot first. */
  inChat(chatId: string, command?: string): Promise<repo.BotCommandRow[]> {
    return repo.commandsInChat(this.deps.db, chatId, command);
  }
}
