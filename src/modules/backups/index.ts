// The public face of the backups module: what other modules, plugins and the composition root may use.
export { backupCommands } from './backups.cli.ts';
export { default as backupsRoutes } from './backups.routes.ts';
export { createBackupService } from './backups.service.ts';
