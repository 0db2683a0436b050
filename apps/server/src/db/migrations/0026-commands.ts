import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';
import { idColumn } from './columns';

// Slash commands (modules/commands): the commands a bot registered, each a name unique to its bot and the address
// Parley POSTs to when someone types it. They go with the bot's account.
export const commandsMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(db.schema.createTable('bot_commands'), dialect)
      .addColumn('bot_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('command', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('bot_commands_name', ['bot_id', 'command'])
      .execute();
  },
});
