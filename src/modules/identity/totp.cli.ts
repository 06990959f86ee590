import { runMigrations } from '../../db/client.ts';
import type { IdentityCliCommand } from './auth.cli.ts';
import { findUser } from './auth.repo.ts';
import { deleteFactor, findFactor } from './totp.repo.ts';

const USAGE = 'usage: npm run cli -- user:totp-reset <id>';

/**
 * The operator's way back in for a person who lost both the authenticator and the recovery codes:
 * their second factor (and its recovery codes) is removed, and the password alone signs in again.
 */
export const totpCommands: IdentityCliCommand[] = [
  {
    name: 'user:totp-reset',
    usage: 'user:totp-reset <id>',
    help: "turn a person's two-step sign-in (TOTP) off, for one who lost the phone and the recovery codes",
    async run(database, args, config) {
      const [raw] = args;
      if (args.length !== 1 || !raw || !/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > 2147483647) {
        console.error(USAGE);
        return 1;
      }
      await runMigrations(database, { defaultCurrency: config.defaultCurrency });
      const id = Number(raw);
      const user = await findUser(database.db, id);
      if (!user) {
        console.error(`no user has the id ${id}`);
        return 1;
      }
      const had = await findFactor(database.db, id);
      await database.db.transaction((tx) => deleteFactor(tx, id));
      console.log(
        had
          ? `two-step sign-in of ${user.username ?? user.nickname} (id ${id}) turned off; the password alone signs in`
          : `${user.username ?? user.nickname} (id ${id}) had no two-step sign-in`,
      );
      return 0;
    },
  },
];
