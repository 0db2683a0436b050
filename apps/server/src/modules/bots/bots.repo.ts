import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database';
import type { BotDeliveriesTable, BotsTable } from './bots.tables';

// The bots and bot_deliveries tables' statements.

export type BotRow = Selectable<BotsTable>;
export type DeliveryRow = Selectable<BotDeliveriesTable>;

/** How many delivery attempts a bot's log keeps. */
export const DELIVERIES_KEPT = 50;

export async function insertBot(db: Db, bot: Insertable<BotsTable>): Promise<void> {
  await db.insertInto('bots').values(bot).execute();
}

export const botById = (db: Db, botId: number): Promise<BotRow | undefined> =>
  db.selectFrom('bots').selectAll().where('user_id', '=', botId).executeTakeFirst();

export const botsOwnedBy = (db: Db, ownerId: number): Promise<BotRow[]> =>
  db.selectFrom('bots').selectAll().where('owner_id', '=', ownerId).orderBy('user_id').execute();

/** Of these users, the bots (with where their events go). */
export const botsAmong = (db: Db, userIds: number[]): Promise<BotRow[]> =>
  userIds.length === 0
    ? Promise.resolve([])
    : db.selectFrom('bots').selectAll().where('user_id', 'in', userIds).execute();

export async function updateBot(db: Db, botId: number, changes: Updateable<BotsTable>): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('bots').set(changes).where('user_id', '=', botId).execute();
}

/** Records an attempt and forgets all but the bot's last DELIVERIES_KEPT. */
export async function recordDelivery(db: Db, row: Insertable<BotDeliveriesTable>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('bot_deliveries').values(row).execute();
    const cutoff = await trx
      .selectFrom('bot_deliveries')
      .select('id')
      .where('bot_id', '=', row.bot_id)
      .orderBy('id', 'desc')
      .offset(DELIVERIES_KEPT)
      .limit(1)
      .executeTakeFirst();
    if (cutoff)
      await trx
        .deleteFrom('bot_deliveries')
        .where('bot_id', '=', row.bot_id)
        .where('id', '<=', cutoff.id)
        .execute();
  });
}

export const deliveriesOf = (db: Db, botId: number): Promise<DeliveryRow[]> =>
  db
    .selectFrom('bot_deliveries')
    .selectAll()
    .where('bot_id', '=', botId)
    .orderBy('id', 'desc')
    .limit(DELIVERIES_KEPT)
    .execute();
