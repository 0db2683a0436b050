import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';
import { idColumn } from './columns';

// Link previews (modules/link-previews): what a fetched page said about itself, kept per address for a day so a
// link shared in many chats is fetched once. A message keeps its preview as it was shown (messages.link_preview,
// JSON) and names the row it came from (link_preview_id), whose picture stays while any message names it.
// no_preview: its sender asked for none, when sending or by removing the one it had.
export const linkPreviewsMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(db.schema.createTable('link_previews'), dialect)
      .addColumn('url_hash', 'text', (c) => c.notNull())
      .addColumn('fetched_at', 'text', (c) => c.notNull())
      .addColumn('preview', 'text')
      .addColumn('image_key', 'text')
      .execute();
    await db.schema
      .createIndex('link_previews_url')
      .on('link_previews')
      .columns(['url_hash', 'fetched_at'])
      .execute();
    await db.schema.alterTable('messages').addColumn('link_preview', 'text').execute();
    await db.schema.alterTable('messages').addColumn('link_preview_id', 'integer').execute();
    await db.schema
      .alterTable('messages')
      .addColumn('no_preview', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // The sweep asks whether any message still names a preview; few do, so the index holds only those.
    await db.schema
      .createIndex('messages_link_preview')
      .on('messages')
      .column('link_preview_id')
      .where('link_preview_id', 'is not', null)
      .execute();
  },
});
