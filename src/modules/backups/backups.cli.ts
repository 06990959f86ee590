import path from 'node:path';
import type { CliCommand } from '../cli-command.ts';
import { BackupError, restoreBackup, writeBackup } from './backups.archive.ts';
import { runMigrations } from '../../db/client.ts';

export const backupCommands: CliCommand[] = [
  {
    name: 'backup:restore',
    usage: 'backup:restore <file>',
    help: 'restore a backup (.json.gz) into an empty database, embedded or PostgreSQL',
    async run(database, args, config) {
      const [file] = args;
      if (!file || args.length > 1) {
        console.error('usage: npm run cli -- backup:restore <file>');
        return 1;
      }
      try {
        await restoreBackup(
          database,
          path.resolve(file),
          (msg) => console.log(msg),
          config.uploadLimits,
          config.dataDir,
        );
      } catch (err) {
        if (err instanceof BackupError) {
          console.error(`restore refused: ${err.message}`);
          return 1;
        }
        throw err;
      }
      console.log(`restored ${file} into the ${database.kind === 'pg' ? 'PostgreSQL' : 'embedded'} database`);
      return 0;
    },
  },
  {
    name: 'backup:create',
    usage: 'backup:create <file>',
    help: 'write a backup of the database to a new file (.json.gz)',
    async run(database, args, config) {
      const [file] = args;
      if (!file || args.length > 1) {
        console.error('usage: npm run cli -- backup:create <file>');
        return 1;
      }
      await runMigrations(database, { defaultCurrency: config.defaultCurrency });
      const { size, rows } = await writeBackup(database.db, path.resolve(file), config.dataDir);
      console.log(`wrote ${file}: ${size} bytes, ${Object.values(rows).reduce((a, b) => a + b, 0)} rows`);
      return 0;
    },
  },
];
