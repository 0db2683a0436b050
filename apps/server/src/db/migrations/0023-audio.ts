import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';

// Audio attachments and voice messages. A file's `type` may now be 'audio' (a text column: nothing to change).
// kind: 'voice' for a voice message recorded in Parley; duration_ms: an audio file's length (a voice message's
// as recorded, another's as read from the file); waveform: a voice message's 64 peaks as a JSON array;
// played_at: when the person a private chat's voice message was sent to first played it.
export const audioMigration = (_dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('files').addColumn('kind', 'text').execute();
    await db.schema.alterTable('files').addColumn('duration_ms', 'integer').execute();
    await db.schema.alterTable('files').addColumn('waveform', 'text').execute();
    await db.schema.alterTable('files').addColumn('played_at', 'text').execute();
  },
  async down(db: Kysely<any>) {
    for (const column of ['played_at', 'waveform', 'duration_ms', 'kind'])
      await db.schema.alterTable('files').dropColumn(column).execute();
  },
});
