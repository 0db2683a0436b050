import type { Db } from '../../db/database';

// The webhooks table's statements (webhooks.tables.ts). A hook is found by its secret's hash, never the secret.

export interface WebhookRow {
  id: number;
  chat_id: number;
  creator_id: number | null;
  name: string;
  created_at: string;
}

const COLUMNS = ['id', 'chat_id', 'creator_id', 'name', 'created_at'] as const;

export const insertWebhook = (db: Db, hook: Omit<WebhookRow, 'id'> & { secret_hash: string }) =>
  db.insertInto('webhooks').values(hook).returning(COLUMNS).executeTakeFirstOrThrow();

/** A chat's hooks, oldest first. */
export const webhooksOf = (db: Db, chatDbId: number): Promise<WebhookRow[]> =>
  db.selectFrom('webhooks').select(COLUMNS).where('chat_id', '=', chatDbId).orderBy('id').execute();

export const webhookBySecretHash = (db: Db, hash: string): Promise<WebhookRow | undefined> =>
  db.selectFrom('webhooks').select(COLUMNS).where('secret_hash', '=', hash).executeTakeFirst();

/** Deletes one of a chat's hooks; whether it was there. */
export async function deleteWebhookOf(db: Db, chatDbId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('webhooks')
    .where('id', '=', id)
    .where('chat_id', '=', chatDbId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
