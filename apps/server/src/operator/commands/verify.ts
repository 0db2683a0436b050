import { findUserByUsername, updateUser } from '../../modules/accounts/users.repo';
import { type OperatorCommand, UsageError, withDatabase } from '../command';

function verifyCommand(name: 'verify' | 'unverify', summary: string): OperatorCommand {
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
        await updateUser(db, user.id, { is_blue_verified: name === 'verify' ? 1 : 0 });
        console.log(`${user.username} is ${name === 'verify' ? 'now verified' : 'no longer verified'}.`);
        return 0;
      });
    },
  };
}

export const verifyCommands: OperatorCommand[] = [
  verifyCommand('verify', 'give a user the verified badge'),
  verifyCommand('unverify', 'take the verified badge away'),
];
