import { loadConfig } from '../../config';
import type { FileStorage } from '../../platform/storage';
import { openStorage, parseStorageUrl, STORAGE_URL_FORMS } from '../../platform/storage-url';
import { type OperatorCommand, UsageError } from '../command';
import { copyFiles } from '../operations/copy-files';

// Moving the stored files between back ends: `copy-files <from> <to>`, each named as STORAGE_URL
// names a back end; S3 addresses and keys come from the same environment the server reads (S3_*, AWS_*).

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

const copyFilesCommand: OperatorCommand = {
  name: 'copy-files',
  args: '<from> <to>',
  summary: `copy every stored file between back ends (${STORAGE_URL_FORMS}); safe to run again`,
  async run(args) {
    const [fromArg, toArg, ...rest] = args;
    if (!fromArg || !toArg || rest.length > 0) throw new UsageError('Give the source and the target.');
    const config = loadConfig();
    let specs: ReturnType<typeof parseStorageUrl>[];
    try {
      specs = [parseStorageUrl(fromArg, config.dataDir), parseStorageUrl(toArg, config.dataDir)];
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const opened: FileStorage[] = [];
    try {
      for (const spec of specs) opened.push(await openStorage(spec, config.s3));
      const [from, to] = opened as [FileStorage, FileStorage];
      console.log(`Copying stored files from ${from.description} to ${to.description} …`);
      const tty = process.stderr.isTTY;
      const report = await copyFiles(from, to, (done, entry) => {
        if (tty) process.stderr.write(`\r\x1b[2K${done.toLocaleString('en')} files  ${entry.key}`);
      });
      if (tty) process.stderr.write('\r\x1b[2K');
      for (const failure of report.failed) console.error(`  could not copy ${failure.key}: ${failure.error}`);
      console.log(
        `Copied ${report.copied} files (${mb(report.bytes)}); ${report.present} were already there` +
          (report.failed.length > 0 ? `; ${report.failed.length} failed — run the command again.` : '.'),
      );
      if (report.failed.length === 0)
        console.log(`Set STORAGE_URL=${toArg} and restart Parley; the source is left as it was.`);
      return report.failed.length > 0 ? 1 : 0;
    } finally {
      for (const storage of opened) storage.close();
    }
  },
};

export const fileCommands: OperatorCommand[] = [copyFilesCommand];
