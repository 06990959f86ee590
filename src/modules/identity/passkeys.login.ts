import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { Errors } from '../../lib/errors.ts';
import * as authRepo from './auth.repo.ts';
import type { ClientInfo, LoginResult } from './auth.service.ts';
import {
  CHALLENGE_TTL_MS,
  challengeOf,
  relyingParty,
  storeChallenge,
  webauthn,
  type PasskeyServiceDeps,
} from './passkeys.deps.ts';
import * as repo from './passkeys.repo.ts';

/** The options a browser signs in with a discoverable passkey of this site with, under a fresh challenge. */
export async function authenticationOptions(deps: PasskeyServiceDeps): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { rpID } = relyingParty(deps);
  // no allowCredentials: the authenticator offers its discoverable credentials for this site
  const options = await (
    await webauthn()
  ).generateAuthenticationOptions({ rpID, userVerification: 'preferred', timeout: CHALLENGE_TTL_MS });
  await storeChallenge(deps, options.challenge, 'login', null);
  return options;
}

/** The passkey a sign-in answer was made with and its new counter, once its signature is checked. */
async function verifiedAuthentication(deps: PasskeyServiceDeps, credential: AuthenticationResponseJSON, at: Date) {
  const { origin, rpID } = relyingParty(deps);
  const challenge = challengeOf(credential.response.clientDataJSON);
  // the challenge is spent whatever happens next: a response can be tried once
  if (!challenge || !(await repo.consumeChallenge(deps.db, challenge, 'login', null, at))) {
    throw Errors.passkeyRejected('the sign-in challenge is unknown, already used or expired');
  }
  const passkey = await repo.findByCredentialId(deps.db, credential.id);
  if (!passkey) throw Errors.passkeyRejected('this passkey is not registered here');
  if (
    credential.response.userHandle &&
    Buffer.from(credential.response.userHandle, 'base64url').toString('utf8') !== String(passkey.userId)
  ) {
    throw Errors.passkeyRejected();
  }
  try {
    const result = await (
      await webauthn()
    ).verifyAuthenticationResponse({
      response: credential,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: passkey.credentialId,
        publicKey: Buffer.from(passkey.publicKey, 'base64url'),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: false,
    });
    if (!result.verified) throw new Error('not verified');
    return { passkey, newCounter: result.authenticationInfo.newCounter };
  } catch {
    throw Errors.passkeyRejected();
  }
}

/** Signs in with a passkey: a session for its owner unless the account is blocked. */
export async function passkeyLogin(
  deps: PasskeyServiceDeps,
  credential: AuthenticationResponseJSON,
  client: ClientInfo,
): Promise<LoginResult> {
  const at = deps.clock.now();
  const { passkey, newCounter } = await verifiedAuthentication(deps, credential, at);
  return deps.auth.signInTransaction(async (tx) => {
    const user = await authRepo.lockUser(tx, passkey.userId);
    if (!user || user.deletedAt || user.status === 'disabled') throw Errors.accountBlocked();
    await repo.markUsed(tx, passkey.id, newCounter, at);
    return deps.auth.signIn(tx, user, client);
  });
}
