import { AUDIT } from '@parley/protocol';
import { findUserByUsername, updateUser } from '../../modules/accounts/users.repo';
import { AuditService } from '../../modules/audit/audit.service';
import { type OperatorCommand, UsageError, withDatabase } from '../command';

// `npm run admin -- grant-admin|revoke-admin <username>` (issue 13): the site-admin role from the command line,
// for the operator who has no admin account at hand (the first account on a fresh server is one already).
function siteAdminCommand(name: 'grant-admin' | 'revoke-admin', summary: string): OperatorCommand {
  const grant = name === 'grant-admin';
  return {
    name,
    args: '<username>',
    summary,
    async run([username, ...rest]) {
      if (!username || rest.length > 0) throw new UsageError('Give one username.');
      return withDatabase(async (db) => {
        const user = await findUserByUsername(db, username);
        if (!user) {
          console.error(`No user named ${username}.`);
          return 1;
        }
        await db.transaction().execute(async (trx) => {
          await updateUser(trx, user.id, { is_site_admin: grant ? 1 : 0 });
          await new AuditService(trx).record({
            type: grant ? AUDIT.adminGranted : AUDIT.adminRevoked,
            target_id: user.id,
            detail: { by: 'command line' },
          });
        });
        console.log(`${user.username} is ${grant ? 'now a site admin' : 'no longer a site admin'}.`);
        return 0;
      });
    },
  };
}

export const siteAdminCommands: OperatorCommand[] = [
  siteAdminCommand('grant-admin', 'make a user a site admin (the /admin console and API)'),
  siteAdminCommand('revoke-admin', 'take the site-admin role away'),
];
