import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database';
import type { BotCommandsTable } from './commands.tables';

// The bot_commands table's statements. The commands of a chat's bots read chats' chat_members and chats in the
// same statement, read-only, so the composer's list and a command's lookup are one round trip.

export type BotCommandRow = Selectable<BotCommandsTable>;

export const commandsOf = (db: Db, botId: number): Promise<BotCommandRow[]> =>
  db.selectFrom('bot_commands').selectAll().where('bot_id', '=', botId).orderBy('command').execute();

/** Registers a command, or replaces the bot's command of that name. */
export async function upsertCommand(db: Db, row: Insertable<BotCommandsTable>): Promise<void> {
  await db
    .insertInto('bot_commands')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['bot_id', 'command']).doUpdateSet({ description: row.description, url: row.url }),
    )
    .execute();
}

/** Whether a row went. */
export async function deleteCommand(db: Db, botId: number, command: string): Promise<boolean> {
  const result = await db
    .deleteFrom('bot_commands')
    .where('bot_id', '=', botId)
    .where('command', '=', command)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * The commands of the bots that are members of a chat (by its public id), optionally of one name; the oldest bot
 * first, so two bots registering one name are told apart the same way every time.
 */
export const commandsInChat = (db: Db, chatId: string, command?: string): Promise<BotCommandRow[]> => {
  let query = db
    .selectFrom('bot_commands')
    .innerJoin('chat_members', 'chat_members.user_id', 'bot_commands.bot_id')
    .innerJoin('chats', 'chats.id', 'chat_members.chat_id')
    .selectAll('bot_commands')
    .where('chats.chat_id', '=', chatId);
  if (command !== undefined) query = query.where('bot_commands.command', '=', command);
  return query.orderBy('bot_commands.command').orderBy('bot_commands.bot_id').execute();
};
