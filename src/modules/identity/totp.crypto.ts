import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import { sha256 } from '../../lib/tokens.ts';

/**
 * The TOTP secrets at rest: AES-256-GCM under a key derived (HKDF-SHA256) from the server's
 * secret (JWT_SECRET, or the one generated in the data folder), so that a copy of the database
 * alone does not give the secrets away. Each value is `v1.<iv>.<ciphertext>.<tag>` (base64url), its
 * 12-byte IV random, and the user id is bound in as associated data: a value copied to another
 * person's row does not decrypt. Changing the server's secret makes stored secrets unreadable; their
 * owners then sign in with a recovery code and set the factor up again.
 */
export interface SecretBox {
  seal(userId: number, plain: string): string;
  /** null when the value does not decrypt (another server key, a damaged or moved value) */
  open(userId: number, sealed: string): string | null;
}

export function createSecretBox(serverSecret: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', serverSecret, 'ledger', 'totp-secret-v1', 32));
  const aad = (userId: number) => Buffer.from(`totp:${userId}`);
  const b64 = (b: Buffer) => b.toString('base64url');
  return {
    seal(userId, plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(aad(userId));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', b64(iv), b64(body), b64(cipher.getAuthTag())].join('.');
    },
    open(userId, sealed) {
      const [version, iv, body, tag, ...rest] = sealed.split('.');
      if (version !== 'v1' || !iv || !body || !tag || rest.length) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(aad(userId));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

export const RECOVERY_CODE_COUNT = 10;
// no 0/o, 1/l/i: a code copied by hand from paper reads one way only
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_LENGTH = 10;

/** Ten fresh recovery codes, written `xxxxx-xxxxx` (about 49 random bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: RECOVERY_LENGTH }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
    return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
  });
}

/** A recovery code as typed (any case, spaces or dashes) in the form it is hashed in; null when it cannot be one. */
export function normalizeRecoveryCode(typed: string): string | null {
  const plain = typed.replace(/[\s-]/g, '').toLowerCase();
  return plain.length === RECOVERY_LENGTH && [...plain].every((c) => RECOVERY_ALPHABET.includes(c)) ? plain : null;
}

/** What is stored of a recovery code: random enough that a plain SHA-256 cannot be searched back. */
export function hashRecoveryCode(normalized: string): string {
  return sha256(`recovery:${normalized}`);
}
