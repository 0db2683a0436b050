import { UsersService } from '../../modules/accounts/users.service';
import { type AccountAction, AccountActionsService } from '../../modules/admin/account-actions.service';
import { AuditService } from '../../modules/audit/audit.service';
import { type OperatorCommand, UsageError, withDatabase } from '../command';

// `npm run admin -- verify|unverify|grant-admin|revoke-admin <username>`: the badge and the site-admin role from
// the command line, for the operator who has no admin account at hand (the first verified account on a fresh
// server is one already). They call the admin API's own AccountActionsService on the configured database, so each
// change is recorded in the audit log as the console's are, with no actor (no account acted) and
// `by: 'command line'`.

type Act = (actions: AccountActionsService, action: AccountAction) => Promise<unknown>;

function peopleCommand(name: string, summary: string, act: Act, done: string): OperatorCommand {
  return {
    name,
    args: '<username>',
    summary,
    async run([username, ...rest]) {
      if (!username || rest.length > 0) throw new UsageError('Give one username.');
      return withDatabase(async (db) => {
        const users = new UsersService(db);
        const user = await users.findByUsername(username);
        if (!user) {
          console.error(`No user named ${username}.`);
          return 1;
        }
        const actions = new AccountActionsService({ db, users, audit: new AuditService(db) });
        await act(actions, { actorId: null, userId: user.id, note: '' });
        console.log(`${user.username} ${done}.`);
        return 0;
      });
    },
  };
}

const badge =
  (on: boolean): Act =>
  (actions, a) =>
    actions.setVerified(a, on);
const siteAdmin =
  (on: boolean): Act =>
  (actions, a) =>
    actions.setSiteAdmin(a, on);

export const peopleCommands: OperatorCommand[] = [
  peopleCommand('verify', 'give a user the verified badge', badge(true), 'is now verified'),
  peopleCommand('unverify', 'take the verified badge away', badge(false), 'is no longer verified'),
  peopleCommand(
    'grant-admin',
    'make a user a site admin (the /admin console and API)',
    siteAdmin(true),
    'is now a site admin',
  ),
  peopleCommand(
    'revoke-admin',
    'take the site-admin role away',
    siteAdmin(false),
    'is no longer a site admin',
  ),
];
