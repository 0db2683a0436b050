import path from 'node:path';
import { loadConfig } from '../../config';
import { type OperatorCommand, UsageError } from '../command';
import { backup, RefusedError, restore, type ServerFiles } from '../operations/backup';
import { copyToPostgres, redactUrl, TargetNotEmptyError } from '../operations/copy-to-postgres';
import { DatabaseInUseError, sqliteFileOf } from '../operations/sqlite-file';

// Moving and keeping the data: copy-to-postgres, backup, restore. Each works on the server named by
// the same environment the server reads (DATA_DIR, DATABASE_URL).

/** The SQLite server's files, or a refusal naming PostgreSQL's own tools. */
function sqliteServer(postgresAdvice: string): ServerFiles {
  const config = loadConfig();
  const databaseFile = sqliteFileOf(config);
  if (!databaseFile) throw new RefusedError(`DATABASE_URL names PostgreSQL. ${postgresAdvice}`);
  // Files in an object store (STORAGE_URL=s3://…) are the store's to keep; a directory is copied.
  const mediaDir = config.storage.kind === 'local' ? config.storage.root : null;
  return { dataDir: config.dataDir, databaseFile, mediaDir };
}

/** Refusals the operator can act on: the message and exit code 1, without a stack. */
async function refusing(work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (err) {
    if (
      err instanceof RefusedError ||
      err instanceof TargetNotEmptyError ||
      err instanceof DatabaseInUseError
    ) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }
}

const oneArgument = (args: string[], what: string): string => {
  const [value, ...rest] = args;
  if (!value || rest.length > 0) throw new UsageError(`Give ${what}.`);
  return value;
};

const copyToPostgresCommand: OperatorCommand = {
  name: 'copy-to-postgres',
  args: '<postgres-url>',
  summary: "copy a stopped SQLite server's whole database into an empty PostgreSQL database",
  run: (args) =>
    refusing(async () => {
      const url = oneArgument(args, 'the PostgreSQL database URL (postgres://user@host:5432/db)');
      if (!/^postgres(ql)?:\/\//.test(url)) throw new UsageError('The target must be a postgres:// URL.');
      const { databaseFile } = sqliteServer(
        'copy-to-postgres reads a SQLite server: unset DATABASE_URL and set DATA_DIR to its data directory.',
      );
      const started = Date.now();
      console.log(`Copying ${databaseFile} to ${redactUrl(url)}`);
      const report = await copyToPostgres({
        sourceFile: databaseFile,
        targetUrl: url,
        progressTo: process.stderr,
      });
      const rows = report.tables.reduce((sum, t) => sum + t.rows, 0);
      console.log(
        `Copied ${rows.toLocaleString('en')} ${rows === 1 ? 'row' : 'rows'} in ${report.tables.length} tables in ` +
          `${((Date.now() - started) / 1000).toFixed(1)} s; every table's row count matches; ` +
          `${report.sequences} id sequences set.`,
      );
      console.log(
        'Start Parley with DATABASE_URL set to this database (and the same DATA_DIR, which keeps the stored ' +
          'files and the Web Push keys).',
      );
      return 0;
    }),
};

const backupCommand: OperatorCommand = {
  name: 'backup',
  args: '<dir>',
  summary: "a consistent backup of a SQLite server's database and files, taken while it runs",
  run: (args) =>
    refusing(async () => {
      const dir = oneArgument(args, 'a new directory for the backup');
      const server = sqliteServer('Back PostgreSQL up with pg_dump (see the README).');
      if (!server.mediaDir) {
        console.log(
          'Stored files are in the object store (STORAGE_URL): back the bucket up with its own tools.',
        );
      }
      const manifest = await backup(server, dir, (line) => console.log(line));
      console.log(
        `Backed up to ${path.resolve(dir)}: the database as of ${manifest.created_at} and ${manifest.files} ` +
          `files (${(manifest.bytes / 1e6).toFixed(1)} MB).`,
      );
      if (manifest.missing_files.length > 0) {
        console.warn(
          `${manifest.missing_files.length} files the database refers to were already gone from ` +
            `${server.mediaDir} (listed in backup.json).`,
        );
      }
      return 0;
    }),
};

const restoreCommand: OperatorCommand = {
  name: 'restore',
  args: '<dir>',
  summary: "put a backup back into a stopped server's DATA_DIR",
  run: (args) =>
    refusing(async () => {
      const dir = oneArgument(args, 'the backup directory');
      const server = sqliteServer('Restore PostgreSQL with pg_restore (see the README).');
      const report = await restore(server, dir);
      console.log(
        `Restored the backup of ${report.manifest.created_at} into ${server.dataDir} ` +
          `(${report.manifest.files} files).`,
      );
      for (const file of report.setAside) console.log(`  kept what was there as ${file}`);
      if (!server.mediaDir && report.manifest.files > 0) {
        console.warn(
          `The backup's ${report.manifest.files} files are in ${path.resolve(dir, 'media')}, and this server keeps ` +
            'its files in an object store: copy them there with `npm run admin -- copy-files`.',
        );
      }
      return 0;
    }),
};

export const databaseCommands: OperatorCommand[] = [copyToPostgresCommand, backupCommand, restoreCommand];
