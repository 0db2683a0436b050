import type { Selectable } from 'kysely';
import type { Db } from '../../db/database';
import type { OidcFlowsTable, OidcHandoffsTable } from './accounts.tables';

// The statements of single sign-on's two short-lived tables (accounts.tables.ts). Each row is taken by one
// DELETE … RETURNING, so two requests presenting the same id or code cannot both use it, on either database.

export type OidcFlowRow = Selectable<OidcFlowsTable>;
export type OidcHandoffRow = Selectable<OidcHandoffsTable>;

export async function insertFlow(db: Db, flow: OidcFlowRow): Promise<void> {
  await db.insertInto('oidc_flows').values(flow).execute();
}

/** Takes the flow whose id hashes to `idHash` out of the table, if it is there and not expired at `now`. */
export async function takeFlow(db: Db, idHash: string, now: string): Promise<OidcFlowRow | undefined> {
  const row = await db
    .deleteFrom('oidc_flows')
    .where('id_hash', '=', idHash)
    .returningAll()
    .executeTakeFirst();
  return row && row.expires_at > now ? row : undefined;
}

export async function insertHandoff(db: Db, handoff: OidcHandoffRow): Promise<void> {
  await db.insertInto('oidc_handoffs').values(handoff).execute();
}

/** A handoff still good at `now`, left in place (a two-step sign-in may present it again with its code). */
export const findHandoff = (db: Db, codeHash: string, now: string): Promise<OidcHandoffRow | undefined> =>
  db
    .selectFrom('oidc_handoffs')
    .selectAll()
    .where('code_hash', '=', codeHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();

/** Uses a handoff up; whether this call was the one that did. */
export async function takeHandoff(db: Db, codeHash: string, now: string): Promise<boolean> {
  const result = await db
    .deleteFrom('oidc_handoffs')
    .where('code_hash', '=', codeHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Deletes what expired before `now` in both tables (sign-ins abandoned half way). */
export async function deleteExpired(db: Db, now: string): Promise<void> {
  await db.deleteFrom('oidc_flows').where('expires_at', '<=', now).execute();
  await db.deleteFrom('oidc_handoffs').where('expires_at', '<=', now).execute();
}
