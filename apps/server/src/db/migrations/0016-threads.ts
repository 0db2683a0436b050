import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';
import { idColumn } from './columns';

// Threads. A reply names its root (thread_root_id); one sent only to the thread is out of the main timeline
// (in_timeline 0), which history pages, unread counts and chat-list previews read through messages_timeline. A
// root keeps its reply count and last reply time, changed by one relative UPDATE per batch so processes
// writing at once never lose a reply. thread_follows: who is told of a thread's replies (following), who took
// part in it (first_reply_id orders the participants; the root's author has the root's id) and what each has
// read of it. A root that goes with its author's account takes its thread with it, as a chat takes its messages.
export const threadsMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('messages')
      .addColumn('thread_root_id', 'integer', (c) => c.references('messages.id').onDelete('cascade'))
      .execute();
    await db.schema
      .alterTable('messages')
      .addColumn('in_timeline', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema
      .alterTable('messages')
      .addColumn('thread_reply_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('messages').addColumn('thread_last_reply_at', 'text').execute();
    await db.schema
      .createIndex('messages_timeline')
      .on('messages')
      .columns(['chat_id', 'in_timeline', 'id'])
      .execute();
    await db.schema
      .createIndex('messages_thread')
      .on('messages')
      .columns(['thread_root_id', 'id'])
      .where('thread_root_id', 'is not', null)
      .execute();

    await idColumn(db.schema.createTable('thread_follows'), dialect)
      .addColumn('root_id', 'integer', (c) => c.notNull().references('messages.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('following', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('first_reply_id', 'integer')
      .addColumn('last_read_id', 'integer', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint('thread_follows_root_user', ['root_id', 'user_id'])
      .execute();
    await db.schema
      .createIndex('thread_follows_user')
      .on('thread_follows')
      .columns(['user_id', 'following'])
      .execute();
  },
});
