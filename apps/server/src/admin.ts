import type { AdminCommand } from './admin/command';
import { databaseCommands } from './admin/database';
import { runAdmin } from './admin/dispatch';
import { fileCommands } from './admin/files';
import { siteAdminCommands } from './admin/site-admin';
import { verifyCommands } from './admin/verify';

// Operator commands: `npm run admin -- <command> [arguments]` (`npm run admin -- help` lists them).
// To add one: a file in admin/ exporting AdminCommand objects (see admin/command.ts), listed here.
const commands: AdminCommand[] = [
  ...verifyCommands,
  ...siteAdminCommands,
  ...databaseCommands,
  ...fileCommands,
];

process.exitCode = await runAdmin(commands, process.argv.slice(2));
