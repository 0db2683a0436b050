import { loadConfig } from './config';
import { createDb } from './db/database';
import { migrateToLatest } from './db/migrate';
import { findUserByUsername, updateUser } from './modules/accounts/users.repo';

// Operator commands: `npm run admin -- verify <username>` and `unverify <username>`.
const [command, username] = process.argv.slice(2);
if (!command || !['verify', 'unverify'].includes(command) || !username) {
  console.error('Usage: npm run admin -- verify|unverify <username>');
  process.exit(2);
}
const { db, dialect } = createDb(loadConfig());
try {
  await migrateToLatest(db, dialect);
  const user = await findUserByUsername(db, username);
  if (!user) {
    console.error(`No user named ${username}.`);
    process.exitCode = 1;
  } else {
    await updateUser(db, user.id, { is_blue_verified: command === 'verify' ? 1 : 0 });
    console.log(`${user.username} is ${command === 'verify' ? 'now verified' : 'no longer verified'}.`);
  }
} finally {
  await db.destroy();
}
