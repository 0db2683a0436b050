import type { OperatorCommand } from './command';
import { databaseCommands } from './commands/database';
import { fileCommands } from './commands/files';
import { peopleCommands } from './commands/people';
import { runCommand } from './dispatch';

// The operator's commands: `npm run admin -- <command> [arguments]` (`npm run admin -- help` lists them).
// commands/ reads the arguments and prints; operations/ does what a command does to a whole server (backup,
// restore, copies between databases and file stores). To add a command: a file in commands/ exporting
// OperatorCommand objects (see command.ts), listed here.
const commands: OperatorCommand[] = [...peopleCommands, ...databaseCommands, ...fileCommands];

process.exitCode = await runCommand(commands, process.argv.slice(2));
