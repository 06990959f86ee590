import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { lockDataDir } from './lib/datadir-lock.ts';
import { createLogger } from './lib/logger.ts';
import { tasks } from './modules/index.ts';
import { startScheduler } from './modules/scheduler.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const { logger, close: closeLog } = createLogger({ level: config.logLevel, logDir: config.logDir, timezone: config.appTimezone, stdout: config.logToStdout });
  if (config.jwtSecretGenerated) logger.warn('JWT_SECRET is not set: using a generated secret stored in the data folder; set JWT_SECRET in production');

  let unlock: (() => Promise<void>) | null = null;
  if (!config.databaseUrl) {
    try {
      unlock = await lockDataDir(config.dataDir, (err) => {
        logger.fatal({ err }, 'lost the lock on the data folder; stopping');
        process.exit(1);
      });
    } catch (err) {
      logger.fatal((err as Error).message);
      console.error((err as Error).message);
      process.exit(1);
    }
  }

  const app = await buildApp(config, { logger });
  const scheduler = config.scheduler ? startScheduler(app, tasks) : null;

  closeWithGrace({ delay: 10_000, logger }, async ({ signal, err }) => {
    if (err) logger.error({ err }, 'closing after an error');
    else logger.info({ signal }, 'shutting down');
    await scheduler?.stop();
    await app.close();
    if (unlock) await unlock();
    closeLog();
  });

  await app.listen({ port: config.port, host: config.host });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
