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
  const {
    logger,
    health: logHealth,
    close: closeLog,
  } = createLogger({
    level: config.logLevel,
    logDir: config.logDir,
    timezone: config.appTimezone,
    stdout: config.logToStdout,
  });
  if (config.jwtSecretGenerated)
    logger.warn(
      'JWT_SECRET is not set: using a generated secret stored in the data folder; set JWT_SECRET in production',
    );

  let unlock: (() => Promise<void>) | null = null;
  if (!config.databaseUrl) {
    try {
      unlock = await lockDataDir(
        config.dataDir,
        (err) => {
          logger.fatal({ err }, 'lost the lock on the data folder; stopping');
          process.exit(1);
        },
        { waitMs: config.dataDirLockWaitMs },
      );
    } catch (err) {
      logger.fatal((err as Error).message);
      console.error((err as Error).message);
      process.exit(1);
    }
  }

  const app = await buildApp(config, { logger, logHealth });
  const scheduler = config.scheduler ? startScheduler(app, tasks) : null;

  // SIGTERM/SIGINT: stop listening at once, let requests in flight finish within the grace period,
  // then cut the connections still open (a download then ends without its final chunk, so the
  // client sees it incomplete), close the database and exit. close-with-grace exits anyway a
  // little after the grace period if closing itself hangs.
  const grace = config.shutdownGraceMs;
  closeWithGrace({ delay: grace + 2_000, logger }, async ({ signal, err }) => {
    if (err) logger.error({ err }, 'closing after an error');
    else logger.info({ signal, graceMs: grace }, 'shutting down: finishing the requests in flight');
    await scheduler?.stop();
    if (!(await app.drain(grace))) {
      logger.warn('grace period over: cutting the connections still open');
      app.server.closeAllConnections();
    }
    await app.close();
    if (unlock) await unlock();
    logger.info('stopped');
    closeLog();
  });

  await app.listen({ port: config.port, host: config.host });
  const metricsAddress = await app.metrics.listen();
  if (metricsAddress) logger.info({ address: metricsAddress.address, port: metricsAddress.port }, 'metrics listening');
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
