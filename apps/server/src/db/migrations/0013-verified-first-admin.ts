import { type Kysely, type Migration, sql } from 'kysely';

// The site-admin role once went to the first account registered, verified or not, so whoever signed up first
// on a freshly exposed server held it without proving an address. It now goes to the first account whose address
// is verified. An account that got the role that way and never verified loses it here (one the operator granted
// keeps it), and the audit log says so.
export const verifiedFirstAdminMigration = (): Migration => ({
  async up(db: Kysely<any>) {
    const { rows } = await sql<{ id: number; username: string }>`
      SELECT id, username FROM users
      WHERE is_site_admin = 1 AND is_activated = 0
        AND id IN (SELECT target_id FROM audit_events WHERE type = 'admin.granted' AND detail = '{"first":true}')
        AND id NOT IN (
          SELECT target_id FROM audit_events
          WHERE type = 'admin.granted' AND detail <> '{"first":true}' AND target_id IS NOT NULL
        )`.execute(db);
    const now = new Date().toISOString();
    for (const { id, username } of rows) {
      await db.updateTable('users').set({ is_site_admin: 0 }).where('id', '=', id).execute();
      await db
        .insertInto('audit_events')
        .values({
          type: 'admin.revoked',
          actor_id: null,
          target_id: id,
          detail: JSON.stringify({ username, reason: 'email never verified' }),
          created_at: now,
        })
        .execute();
    }
  },
});
