import { eq } from 'drizzle-orm';
import { ConfigError, loadConfig } from './config.ts';
import { createDatabase, runMigrations } from './db/client.ts';
import { users } from './db/schema/index.ts';
import { lockDataDir } from './lib/datadir-lock.ts';
import { cliCommands } from './modules/cli-commands.ts';

const USAGE = `usage: npm run cli -- <command>

  user:role <id> <user|admin>   set a user's role (make the first administrator)
${cliCommands.map((c) => `  ${c.usage.padEnd(30)}${c.help}`).join('\n')}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  const config = loadConfig();
  const unlock = config.databaseUrl
    ? null
    : await lockDataDir(config.dataDir, () => process.exit(1), { waitMs: config.dataDirLockWaitMs });
  const database = await createDatabase({
    databaseUrl: config.databaseUrl,
    embeddedDbDir: config.embeddedDbDir,
    poolSize: 2,
  });
  try {
    if (command === 'user:role') {
      const [idText, role] = args;
      if (!idText || !/^\d+$/.test(idText) || (role !== 'admin' && role !== 'user')) {
        console.error('usage: npm run cli -- user:role <id> <user|admin>');
        return 1;
      }
      await runMigrations(database, { defaultCurrency: config.defaultCurrency });
      const rows = await database.db
        .update(users)
        .set({ role, updatedAt: new Date() })
        .where(eq(users.id, Number(idText)))
        .returning({ id: users.id, nickname: users.nickname });
      if (!rows.length) {
        console.error(`no user with id ${idText}`);
        return 1;
      }
      console.log(
        `user ${rows[0]!.id} (${rows[0]!.nickname}) is now ${role}; running servers pick this up within a minute`,
      );
      return 0;
    }
    const cmd = cliCommands.find((c) => c.name === command);
    if (!cmd) {
      console.error(`unknown command "${command}"\n\n${USAGE}`);
      return 1;
    }
    return await cmd.run(database, args, config);
  } finally {
    await database.close();
    if (unlock) await unlock();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(
      err instanceof ConfigError ? `configuration error: ${err.message}` : err instanceof Error ? err.message : err,
    );
    process.exit(1);
  },
);
