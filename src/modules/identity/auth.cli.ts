import type { Config } from '../../config.ts';
import { runMigrations, type Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../lib/errors.ts';
import { normalizeUsername, usernameMessage, usernameProblem } from '../../lib/usernames.ts';
import { setUpNewUser } from './new-user.ts';
import * as repo from './auth.repo.ts';
import { acceptPassword, createPasswordHasher } from './passwords.ts';

const USAGE =
  'usage: npm run cli -- user:create <username> [--admin] [--nickname <name>]   (password on standard input)';

/** The first line of standard input: the password never appears on a command line or in the shell history. */
async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('password: ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if (Buffer.concat(chunks).includes(10)) break;
  }
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

/** A command of `npm run cli` (the shape cli-commands.ts collects; declared here so that no import cycle forms). */
export interface IdentityCliCommand {
  name: string;
  usage: string;
  help: string;
  run(database: Database, args: string[], config: Readonly<Config>): Promise<number>;
}

export const authCommands: IdentityCliCommand[] = [
  {
    name: 'user:create',
    usage: 'user:create <username> [--admin]',
    help: 'create an account with a password read from standard input (--admin: an administrator)',
    async run(database, args, config) {
      const admin = args.includes('--admin');
      const rest = args.filter((a) => a !== '--admin');
      const nickIndex = rest.indexOf('--nickname');
      const nickname = nickIndex >= 0 ? rest[nickIndex + 1] : undefined;
      if (nickIndex >= 0) rest.splice(nickIndex, 2);
      const [typed] = rest;
      if (
        !typed ||
        rest.length !== 1 ||
        rest.some((a) => a.startsWith('--')) ||
        (nickIndex >= 0 && !nickname?.trim())
      ) {
        console.error(USAGE);
        return 1;
      }
      const username = normalizeUsername(typed);
      const problem = usernameProblem(username);
      if (problem) {
        console.error(`the username ${usernameMessage(problem)}`);
        return 1;
      }
      let password: string;
      try {
        password = acceptPassword(await readPassword(), username);
      } catch (err) {
        if (err instanceof AppError) {
          console.error(`password refused: ${err.message}`);
          return 1;
        }
        throw err;
      }
      await runMigrations(database, { defaultCurrency: config.defaultCurrency });
      const passwordHash = await createPasswordHasher(config.passwordHashing).hash(password);
      try {
        const user = await database.db.transaction(async (tx) => {
          if (await repo.findUserByUsername(tx, username)) return null;
          const row = await repo.insertUser(tx, {
            username,
            passwordHash,
            nickname: nickname?.trim().slice(0, 30) || username,
            role: admin ? 'admin' : 'user',
            baseCurrency: config.defaultCurrency,
          });
          await setUpNewUser(tx, row);
          return row;
        });
        if (!user) {
          console.error(`the username "${username}" is taken`);
          return 1;
        }
        console.log(`created ${user.role} ${user.username} (id ${user.id})`);
        return 0;
      } catch (err) {
        if (isUniqueViolation(err)) {
          console.error(`the username "${username}" is taken`);
          return 1;
        }
        throw err;
      }
    },
  },
];
