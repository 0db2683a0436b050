import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';
import { idColumn } from './columns';

export const attachmentsMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(db.schema.createTable('files'), dialect)
      .addColumn('chat_id', 'integer', (c) => c.notNull().references('chats.id').onDelete('cascade'))
      .addColumn('uploader_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      // Null until a message carries the file.
      .addColumn('message_id', 'integer', (c) => c.references('messages.id').onDelete('cascade'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('mime', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('storage_key', 'text', (c) => c.notNull())
      .addColumn('thumb_key', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('files_message').on('files').column('message_id').execute();
    await db.schema.createIndex('files_chat').on('files').column('chat_id').execute();

    // Secrets every process must share (the file-URL signing key), made once by whichever process starts first.
    await db.schema
      .createTable('server_secrets')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
});
