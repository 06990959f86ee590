import { setTimeout as sleep } from 'node:timers/promises';
import { isUniqueViolation } from '../../db/errors.ts';
import { Errors } from '../../lib/errors.ts';
import { acceptUsername, normalizeUsername } from '../../lib/usernames.ts';
import { type Locale } from '../categories/index.ts';
import {
  assertPasswordsOn,
  assertUsable,
  signIn,
  signInTransaction,
  type AuthDeps,
  type ClientInfo,
  type LoginResult,
} from './auth.deps.ts';
import { setUpNewUser } from './new-user.ts';
import { acceptPassword, normalizePassword } from './passwords.ts';
import type { SecondFactorChallenge } from './second-factor.ts';

/** A new user with a username and password, signed in at once (never an administrator). */
export async function register(
  deps: AuthDeps,
  body: { username: string; password: string; nickname?: string },
  client: ClientInfo,
  locale: Locale = 'en',
): Promise<LoginResult> {
  const { db, repo } = deps;
  assertPasswordsOn(deps);
  if (deps.config.registration === 'closed') throw Errors.forbidden('registration is closed on this server');
  const username = acceptUsername(body.username);
  const password = acceptPassword(body.password, username);
  const nickname = body.nickname?.trim() || username;
  if ([...nickname].length > 30) throw Errors.field('nickname', 'must be at most 30 characters');
  if (await repo.findUserByUsername(db, username)) throw Errors.conflict('username is taken');
  const passwordHash = await deps.hasher.hash(password);
  try {
    return await signInTransaction(deps, async (tx) => {
      // never an administrator: whoever registers a name first must not take the server
      const user = await repo.insertUser(tx, {
        username,
        passwordHash,
        nickname,
        role: 'user',
        baseCurrency: deps.config.defaultCurrency,
      });
      await setUpNewUser(tx, user, locale);
      return signIn(deps, tx, user, client);
    });
  } catch (err) {
    // two registrations of one name at once: the unique index lets exactly one through
    if (isUniqueViolation(err)) throw Errors.conflict('username is taken');
    throw err;
  }
}

/** The sign-in's answer, or a second-factor ticket for a person with a confirmed TOTP factor. */
export async function passwordLogin(
  deps: AuthDeps,
  raw: { username: string; password: string },
  client: ClientInfo,
): Promise<LoginResult | SecondFactorChallenge> {
  const { db, repo } = deps;
  assertPasswordsOn(deps);
  // a name typed in full-width letters signs in as the name it was registered under
  const body = { ...raw, username: normalizeUsername(raw.username) };
  const ip = client.ip ?? 'unknown';
  await deps.guard.assertOpen(body.username, ip);
  const password = normalizePassword(body.password);
  // counted before the password is checked: concurrent guesses cannot outrun the lock
  const delay = await deps.guard.attempt(body.username, ip);
  const user = await repo.findUserByUsername(db, body.username);
  // an unknown user costs the same hashing time as a known one, and gets the same answer
  const ok = user?.passwordHash
    ? await deps.hasher.verify(user.passwordHash, password)
    : (await deps.hasher.verifyNothing(password), false);
  if (!ok || !user) {
    // the same statement whether or not the user exists (it changes no row for an unknown name)
    await repo.countFailedSignIn(db, body.username);
    if (delay) await sleep(delay);
    throw Errors.badCredentials();
  }
  assertUsable(user);
  await deps.guard.succeeded(body.username, ip);
  const rehash = deps.hasher.needsRehash(user.passwordHash!) ? await deps.hasher.hash(password) : null;
  const challenge = await deps.secondFactor?.challenge(user.id);
  if (challenge) {
    // the password is right: its rehash is kept, the session waits for the code
    if (rehash) await repo.updateUser(db, user.id, { passwordHash: rehash });
    return challenge;
  }
  return signInTransaction(deps, async (tx) => {
    const locked = await repo.lockUser(tx, user.id);
    assertUsable(locked);
    // the cost parameters changed since this hash was made: store one with the current ones
    if (rehash && locked.passwordHash === user.passwordHash)
      await repo.updateUser(tx, user.id, { passwordHash: rehash });
    return signIn(deps, tx, locked, client);
  });
}
