import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';

// Single sign-on (accounts). oidc_flows: a sign-in sent to the provider and not yet back, found by the hash of
// the random id in the browser's cookie; it holds the state, nonce and PKCE verifier the callback checks.
// oidc_handoffs: a sign-in the provider confirmed, waiting for the web app to trade its one-time code (only its
// hash kept) for a session. Both live minutes at most and are deleted when used.
export const oidcMigration = (_dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('oidc_flows')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('code_verifier', 'text', (c) => c.notNull())
      .addColumn('invite', 'text')
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oidc_flows_expiry').on('oidc_flows').column('expires_at').execute();
    await db.schema
      .createTable('oidc_handoffs')
      .addColumn('code_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created', 'integer', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oidc_handoffs_expiry').on('oidc_handoffs').column('expires_at').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('oidc_handoffs').execute();
    await db.schema.dropTable('oidc_flows').execute();
  },
});
