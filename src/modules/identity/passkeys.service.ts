import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { Errors } from '../../lib/errors.ts';
import * as authRepo from './auth.repo.ts';
import type { AuthService, ClientInfo, LoginResult } from './auth.service.ts';
import { assertKeepsAMethod } from './sign-in-methods.rules.ts';
import * as repo from './passkeys.repo.ts';

export const CHALLENGE_TTL_MS = 5 * 60_000;

/** The WebAuthn library (and its ASN.1 and CBOR parsers) loads at the first passkey request, not at start-up. */
let library: Promise<typeof import('@simplewebauthn/server')> | null = null;
const webauthn = () => (library ??= import('@simplewebauthn/server'));
export const MAX_PASSKEYS_PER_USER = 20;

export interface PasskeyView {
  id: number;
  name: string;
  device_type: string;
  backed_up: boolean;
  created_at: string;
  last_used_at: string | null;
}

function toView(row: repo.PasskeyRow): PasskeyView {
  return {
    id: row.id,
    name: row.name,
    device_type: row.deviceType,
    backed_up: row.backedUp,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** The challenge a browser signed, read from its client data (checked again by the verifier). */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' && data.challenge.length > 0 && data.challenge.length <= 512 ? data.challenge : null;
  } catch {
    return null;
  }
}

export interface PasskeyServiceDeps {
  db: Db;
  /** the address people open; null: passkeys are not offered (40401) */
  publicUrl: string | null;
  rpName: string;
  auth: Pick<AuthService, 'signIn' | 'signInTransaction'>;
  clock: Clock;
}

export function createPasskeyService(deps: PasskeyServiceDeps) {
  const { db } = deps;
  const now = () => deps.clock.now();

  function relyingParty() {
    if (!deps.publicUrl) throw Errors.notFound('passkeys are not configured on this server (PUBLIC_URL); the feature');
    const url = new URL(deps.publicUrl);
    return { origin: url.origin, rpID: url.hostname };
  }

  async function storeChallenge(challenge: string, purpose: 'register' | 'login', userId: number | null): Promise<void> {
    const at = now();
    await repo.purgeExpiredChallenges(db, at);
    await repo.insertChallenge(db, { challenge, purpose, userId, expiresAt: new Date(at.getTime() + CHALLENGE_TTL_MS), createdAt: at });
  }

  return {
    async list(userId: number): Promise<{ list: PasskeyView[] }> {
      return { list: (await repo.listOwn(db, userId)).map(toView) };
    },

    async registrationOptions(userId: number): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const { rpID } = relyingParty();
      const user = await authRepo.findUser(db, userId);
      if (!user) throw Errors.notFound('user');
      const existing = await repo.listOwn(db, userId);
      if (existing.length >= MAX_PASSKEYS_PER_USER) throw Errors.rule(`at most ${MAX_PASSKEYS_PER_USER} passkeys per user`);
      const options = await (await webauthn()).generateRegistrationOptions({
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
      await storeChallenge(options.challenge, 'register', userId);
      return options;
    },

    async register(userId: number, credential: RegistrationResponseJSON, name: string | undefined): Promise<PasskeyView> {
      const { origin, rpID } = relyingParty();
      const challenge = challengeOf(credential.response.clientDataJSON);
      if (!challenge || !(await repo.consumeChallenge(db, challenge, 'register', userId, now()))) {
        throw Errors.field('credential', 'answers no open registration challenge (unknown, already used or expired)');
      }
      let info;
      try {
        const result = await (await webauthn()).verifyRegistrationResponse({ response: credential, expectedChallenge: challenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: false });
        if (!result.verified) throw new Error('not verified');
        info = result.registrationInfo;
      } catch (err) {
        throw Errors.field('credential', `could not be verified: ${(err as Error).message}`);
      }
      const label = name?.trim() || 'Passkey';
      try {
        return await db.transaction(async (tx) => {
          if ((await repo.countOwn(tx, userId)) >= MAX_PASSKEYS_PER_USER) throw Errors.rule(`at most ${MAX_PASSKEYS_PER_USER} passkeys per user`);
          const row = await repo.insertPasskey(tx, {
            userId,
            credentialId: info.credential.id,
            publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
            counter: info.credential.counter,
            transports: info.credential.transports ?? [],
            name: label,
            deviceType: info.credentialDeviceType,
            backedUp: info.credentialBackedUp,
            createdAt: now(),
          });
          // a demo account with a lasting way in is kept
          await authRepo.updateUser(tx, userId, { isDemo: false });
          return toView(row);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw Errors.conflict('this passkey is already registered');
        throw err;
      }
    },

    async authenticationOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const { rpID } = relyingParty();
      // no allowCredentials: the authenticator offers its discoverable credentials for this site
      const options = await (await webauthn()).generateAuthenticationOptions({ rpID, userVerification: 'preferred', timeout: CHALLENGE_TTL_MS });
      await storeChallenge(options.challenge, 'login', null);
      return options;
    },

    async login(credential: AuthenticationResponseJSON, client: ClientInfo): Promise<LoginResult> {
      const { origin, rpID } = relyingParty();
      const at = now();
      const challenge = challengeOf(credential.response.clientDataJSON);
      // the challenge is spent whatever happens next: a response can be tried once
      if (!challenge || !(await repo.consumeChallenge(db, challenge, 'login', null, at))) {
        throw Errors.passkeyRejected('the sign-in challenge is unknown, already used or expired');
      }
      const passkey = await repo.findByCredentialId(db, credential.id);
      if (!passkey) throw Errors.passkeyRejected('this passkey is not registered here');
      if (credential.response.userHandle && Buffer.from(credential.response.userHandle, 'base64url').toString('utf8') !== String(passkey.userId)) {
        throw Errors.passkeyRejected();
      }
      let newCounter: number;
      try {
        const result = await (await webauthn()).verifyAuthenticationResponse({
          response: credential,
          expectedChallenge: challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          credential: { id: passkey.credentialId, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.counter, transports: passkey.transports },
          requireUserVerification: false,
        });
        if (!result.verified) throw new Error('not verified');
        newCounter = result.authenticationInfo.newCounter;
      } catch {
        throw Errors.passkeyRejected();
      }
      return deps.auth.signInTransaction(async (tx) => {
        const user = await authRepo.lockUser(tx, passkey.userId);
        if (!user || user.deletedAt || user.status === 'disabled') throw Errors.accountBlocked();
        await repo.markUsed(tx, passkey.id, newCounter, at);
        return deps.auth.signIn(tx, user, client);
      });
    },

    async rename(userId: number, id: number, name: string): Promise<PasskeyView> {
      const label = name.trim();
      if (!label) throw Errors.field('name', 'must not be blank');
      const row = await repo.renameOwn(db, userId, id, label);
      if (!row) throw Errors.notFound('passkey');
      return toView(row);
    },

    async remove(userId: number, id: number): Promise<void> {
      await db.transaction(async (tx) => {
        const user = await authRepo.lockUser(tx, userId);
        if (!user || !(await repo.findOwn(tx, userId, id))) throw Errors.notFound('passkey');
        await assertKeepsAMethod(tx, user, (await repo.countOwn(tx, userId)) - 1);
        await repo.deleteOwn(tx, userId, id);
      });
    },
  };
}
