import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { isUniqueViolation } from '../../db/errors.ts';
import { Errors } from '../../lib/errors.ts';
import * as authRepo from './auth.repo.ts';
import {
  CHALLENGE_TTL_MS,
  challengeOf,
  MAX_PASSKEYS_PER_USER,
  relyingParty,
  storeChallenge,
  toView,
  webauthn,
  type PasskeyServiceDeps,
  type PasskeyView,
} from './passkeys.deps.ts';
import * as repo from './passkeys.repo.ts';

/** The options a browser creates a new passkey of the person's with, under a fresh challenge. */
export async function registrationOptions(
  deps: PasskeyServiceDeps,
  userId: number,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { db } = deps;
  const { rpID } = relyingParty(deps);
  const user = await authRepo.findUser(db, userId);
  if (!user) throw Errors.notFound('user');
  const existing = await repo.listOwn(db, userId);
  if (existing.length >= MAX_PASSKEYS_PER_USER) throw Errors.rule(`at most ${MAX_PASSKEYS_PER_USER} passkeys per user`);
  const options = await (
    await webauthn()
  ).generateRegistrationOptions({
    rpName: deps.rpName,
    rpID,
    userName: user.username ?? user.nickname,
    userDisplayName: user.nickname,
    userID: new TextEncoder().encode(String(user.id)),
    attestationType: 'none',
    timeout: CHALLENGE_TTL_MS,
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    // discoverable: signing in later needs no username
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await storeChallenge(deps, options.challenge, 'register', userId);
  return options;
}

/** The new credential checked against its open challenge and the site (40001 when it is not). */
async function verifiedRegistration(deps: PasskeyServiceDeps, userId: number, credential: RegistrationResponseJSON) {
  const { origin, rpID } = relyingParty(deps);
  const challenge = challengeOf(credential.response.clientDataJSON);
  if (!challenge || !(await repo.consumeChallenge(deps.db, challenge, 'register', userId, deps.clock.now()))) {
    throw Errors.field('credential', 'answers no open registration challenge (unknown, already used or expired)');
  }
  try {
    const result = await (
      await webauthn()
    ).verifyRegistrationResponse({
      response: credential,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
    if (!result.verified) throw new Error('not verified');
    return result.registrationInfo;
  } catch (err) {
    throw Errors.field('credential', `could not be verified: ${(err as Error).message}`);
  }
}

/** Keeps a passkey the browser created, named `name` (else "Passkey"); a demo account becomes a lasting one. */
export async function registerPasskey(
  deps: PasskeyServiceDeps,
  userId: number,
  credential: RegistrationResponseJSON,
  name: string | undefined,
): Promise<PasskeyView> {
  const { db } = deps;
  const info = await verifiedRegistration(deps, userId, credential);
  const label = name?.trim() || 'Passkey';
  try {
    return await db.transaction(async (tx) => {
      if ((await repo.countOwn(tx, userId)) >= MAX_PASSKEYS_PER_USER)
        throw Errors.rule(`at most ${MAX_PASSKEYS_PER_USER} passkeys per user`);
      const row = await repo.insertPasskey(tx, {
        userId,
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: info.credential.transports ?? [],
        name: label,
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
        createdAt: deps.clock.now(),
      });
      // a demo account with a lasting way in is kept
      await authRepo.updateUser(tx, userId, { isDemo: false });
      return toView(row);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw Errors.conflict('this passkey is already registered');
    throw err;
  }
}
