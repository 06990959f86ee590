import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { Errors } from '../../lib/errors.ts';
import type { AuthService } from './auth.service.ts';
import * as repo from './passkeys.repo.ts';

export const CHALLENGE_TTL_MS = 5 * 60_000;

/** The WebAuthn library (and its ASN.1 and CBOR parsers) loads at the first passkey request, not at start-up. */
let library: Promise<typeof import('@simplewebauthn/server')> | null = null;
export const webauthn = () => (library ??= import('@simplewebauthn/server'));
export const MAX_PASSKEYS_PER_USER = 20;

export interface PasskeyView {
  id: number;
  name: string;
  device_type: string;
  backed_up: boolean;
  created_at: string;
  last_used_at: string | null;
}

export function toView(row: repo.PasskeyRow): PasskeyView {
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
export function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' && data.challenge.length > 0 && data.challenge.length <= 512
      ? data.challenge
      : null;
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

/** The site passkeys are bound to, from the public address; 40401 when there is none. */
export function relyingParty(deps: PasskeyServiceDeps) {
  if (!deps.publicUrl) throw Errors.notFound('passkeys are not configured on this server (PUBLIC_URL); the feature');
  const url = new URL(deps.publicUrl);
  return { origin: url.origin, rpID: url.hostname };
}

/** A challenge handed out, kept until it is answered or expires (expired ones are purged meanwhile). */
export async function storeChallenge(
  { db, clock }: PasskeyServiceDeps,
  challenge: string,
  purpose: 'register' | 'login',
  userId: number | null,
): Promise<void> {
  const at = clock.now();
  await repo.purgeExpiredChallenges(db, at);
  await repo.insertChallenge(db, {
    challenge,
    purpose,
    userId,
    expiresAt: new Date(at.getTime() + CHALLENGE_TTL_MS),
    createdAt: at,
  });
}
