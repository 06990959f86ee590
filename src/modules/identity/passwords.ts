import { Algorithm, hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';
import { DEFAULT_PASSWORD_HASHING, type PasswordHashingConfig } from '../../config.ts';
import { AppError } from '../../lib/errors.ts';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** zxcvbn-ts' list of common passwords (about 49,000, from real leaks) */
const COMMON = new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));

export type PasswordProblem = 'too_short' | 'too_long' | 'common' | 'same_as_username';

const MESSAGES: Record<PasswordProblem, string> = {
  too_short: `password must be at least ${PASSWORD_MIN} characters`,
  too_long: `password must be at most ${PASSWORD_MAX} characters`,
  common: 'password is among the most common passwords; choose another',
  same_as_username: 'password must not be the username',
};

export function passwordRefused(reason: PasswordProblem, field = 'password'): AppError {
  return new AppError(422, 42201, MESSAGES[reason], [{ field, message: MESSAGES[reason] }], { reason });
}

/** NIST SP 800-63B: any Unicode, normalized NFKC, length counted in code points. */
export function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}

/** The policy's verdict on an already normalized password, or null when it is acceptable. */
export function passwordProblem(password: string, username: string | null): PasswordProblem | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return 'too_short';
  // only spaces (or other white space) is no password at all: refused like one too short
  if (!password.trim()) return 'too_short';
  if (length > PASSWORD_MAX) return 'too_long';
  const lower = password.toLowerCase();
  if (COMMON.has(lower)) return 'common';
  if (username && lower === username.toLowerCase()) return 'same_as_username';
  return null;
}

/** Normalizes and checks a new password; throws 42201 with a `reason`. */
export function acceptPassword(password: string, username: string | null, field = 'password'): string {
  const normalized = normalizePassword(password);
  const problem = passwordProblem(normalized, username);
  if (problem) throw passwordRefused(problem, field);
  return normalized;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** false for a wrong password or an unreadable hash */
  verify(hash: string, password: string): Promise<boolean>;
  /** whether a stored hash was made with other parameters than the current ones */
  needsRehash(hash: string): boolean;
  /** spends the time of one verification, for unknown users (same answer time either way) */
  verifyNothing(password: string): Promise<void>;
}

export function createPasswordHasher(params: PasswordHashingConfig = DEFAULT_PASSWORD_HASHING): PasswordHasher {
  const options = {
    algorithm: Algorithm.Argon2id,
    memoryCost: params.memoryCost,
    timeCost: params.timeCost,
    parallelism: params.parallelism,
  };
  const marker = `$argon2id$v=19$m=${params.memoryCost},t=${params.timeCost},p=${params.parallelism}$`;
  // made once, up front: the first unknown username must not take longer than the others
  const dummy = hash('not a password of anyone', options);
  const hasher: PasswordHasher = {
    hash: (password) => hash(password, options),
    async verify(stored, password) {
      try {
        return await verify(stored, password);
      } catch {
        return false;
      }
    },
    needsRehash: (stored) => !stored.startsWith(marker),
    async verifyNothing(password) {
      await hasher.verify(await dummy, password);
    },
  };
  return hasher;
}
