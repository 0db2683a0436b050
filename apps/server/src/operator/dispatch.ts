import { type OperatorCommand, UsageError } from './command';

export function usageText(commands: readonly OperatorCommand[]): string {
  const width = Math.max(...commands.map((c) => `${c.name} ${c.args}`.length));
  const lines = commands.map((c) => `  ${`${c.name} ${c.args}`.padEnd(width)}  ${c.summary}`);
  return ['Usage: npm run admin -- <command> [arguments]', '', 'Commands:', ...lines].join('\n');
}

/** Runs the command named by argv[0] with the rest; returns the exit code. */
export async function runCommand(
  commands: readonly OperatorCommand[],
  argv: readonly string[],
): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    (name ? console.log : console.error)(usageText(commands));
    return name ? 0 : 2;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    console.error(`Unknown command: ${name}\n\n${usageText(commands)}`);
    return 2;
  }
  try {
    return await command.run(args);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\nUsage: npm run admin -- ${command.name} ${command.args}`);
      return 2;
    }
    console.error(`${command.name} failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}
