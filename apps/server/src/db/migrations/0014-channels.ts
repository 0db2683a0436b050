import { directoryWords } from '@parley/protocol';
import type { Kysely, Migration } from 'kysely';

// Channels and roles. A group gains its visibility ('private', as every group so far, or 'public': listed in the
// directory and open to join), who may post ('everyone' or 'admins': an announcement channel) and the folded
// words of its name and description that the directory matches by prefix on either database (directory_words:
// ' word word …', accents and case folded as message search folds them). A group's admin so far becomes its
// owner: today's groups have exactly one.
export const channelsMigration = (): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('chats')
      .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('private'))
      .execute();
    await db.schema
      .alterTable('chats')
      .addColumn('posting', 'text', (c) => c.notNull().defaultTo('everyone'))
      .execute();
    await db.schema
      .alterTable('chats')
      .addColumn('directory_words', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('chats_visibility').on('chats').column('visibility').execute();
    await db
      .updateTable('chat_members')
      .set({ role: 'owner' })
      .where('role', '=', 'admin')
      .where('chat_id', 'in', db.selectFrom('chats').select('id').where('is_private', '=', 0))
      .execute();
    const groups = await db
      .selectFrom('chats')
      .select(['id', 'name', 'description'])
      .where('is_private', '=', 0)
      .execute();
    for (const g of groups as { id: number; name: string; description: string }[]) {
      await db
        .updateTable('chats')
        .set({ directory_words: directoryWords(g.name, g.description) })
        .where('id', '=', g.id)
        .execute();
    }
  },
});
