import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';
import { idColumn } from './columns';

// Polls (modules/polls). A poll is one message's (its row goes with the message, and so with its chat and its
// author's account); its answers are a JSON array of texts, a vote names an answer by its index. A person's
// votes go with their account. messages.has_poll marks the messages a history page must read a poll for, so a
// page without any reads nothing more.
export const pollsMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('polls')
      .addColumn('message_id', 'integer', (c) => c.primaryKey().references('messages.id').onDelete('cascade'))
      .addColumn('chat_id', 'integer', (c) => c.notNull())
      .addColumn('sender_id', 'integer', (c) => c.notNull())
      .addColumn('question', 'text', (c) => c.notNull())
      .addColumn('options', 'text', (c) => c.notNull())
      .addColumn('multiple', 'integer', (c) => c.notNull())
      .addColumn('anonymous', 'integer', (c) => c.notNull())
      .addColumn('closed_at', 'text')
      .execute();
    await idColumn(db.schema.createTable('poll_votes'), dialect)
      .addColumn('message_id', 'integer', (c) =>
        c.notNull().references('polls.message_id').onDelete('cascade'),
      )
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('option', 'integer', (c) => c.notNull())
      .addColumn('voted_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('poll_votes_choice', ['message_id', 'user_id', 'option'])
      .execute();
    // A deleted account's votes are found by index.
    await db.schema.createIndex('poll_votes_user').on('poll_votes').column('user_id').execute();
    await db.schema
      .alterTable('messages')
      .addColumn('has_poll', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
});
