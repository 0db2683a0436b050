import type { Generated } from 'kysely';

// The commands module's table (migration 0026-commands): the slash commands bots registered.
export interface BotCommandsTable {
  id: Generated<number>;
  /** The bot's users row. */
  bot_id: number;
  /** Lower case, without its slash. */
  command: string;
  description: string;
  url: string;
  created_at: string;
}

export interface CommandsTables {
  bot_commands: BotCommandsTable;
}
