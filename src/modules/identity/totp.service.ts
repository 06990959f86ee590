import { setTimeout as sleep } from 'node:timers/promises';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Db, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, Errors } from '../../lib/errors.ts';
import type { TokenService } from '../../lib/tokens.ts';
import * as authRepo from './auth.repo.ts';
import type { AuthService, ClientInfo, LoginResult } from './auth.service.ts';
import type { SecondFactorChallenge, SecondFactorGate } from './second-factor.ts';

export type { SecondFactorChallenge, SecondFactorGate };
import type { SignInGuard } from './lockout.ts';
import {
  createSecretBox,
  hashRecoveryCode,
  newRecoveryCodes,
  normalizeRecoveryCode,
  type SecretBox,
} from './totp.crypto.ts';
import * as repo from './totp.repo.ts';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
/** a code of the step before or after the server's is accepted too (clock drift) */
const DRIFT_STEPS = 1;
/** how long the ticket of a password sign-in waits for its code */
export const TICKET_TTL_S = 300;
const TICKET_PURPOSE = 'totp-ticket';
const ISSUER = 'Ledger';

export function createSecondFactorGate(deps: { db: Executor; tokens: TokenService }): SecondFactorGate {
  return {
    async challenge(userId) {
      if (!(await repo.hasConfirmedFactor(deps.db, userId))) return null;
      const ticket = await deps.tokens.signPurpose(TICKET_PURPOSE, String(userId), TICKET_TTL_S);
      return { second_factor: 'totp', ticket, expires_in: TICKET_TTL_S };
    },
  };
}

export interface TotpServiceDeps {
  db: Db;
  clock: Clock;
  tokens: TokenService;
  /** the sign-in lockout: every code checked counts as an attempt on the person's own key */
  guard: SignInGuard;
  auth: Pick<AuthService, 'signIn' | 'signInTransaction'>;
  /** the server's secret (JWT_SECRET): the key of the stored TOTP secrets is derived from it */
  serverSecret: string;
  requireAdminTotp: boolean;
}

export interface TotpStatus {
  enabled: boolean;
  pending: boolean;
  confirmed_at: string | null;
  recovery_codes_left: number;
  required: boolean;
}

type Mode = 'confirm' | 'use';

/** a wrong code on a signed-in page: 422, not 401, which would read as the end of the session */
function wrongCode(): AppError {
  const message = 'the code is wrong, already used or out of its window';
  return new AppError(422, 42201, `code ${message}`, [{ field: 'code', message }], { reason: 'bad_code' });
}

/**
 * Checking a code: a six-digit authenticator code of the current step ±1, never one of a step at
 * or before the last accepted one, or an unused recovery code.
 */
function createCodeChecker(deps: { db: Db; clock: Clock; guard: SignInGuard; box: SecretBox }) {
  const { db, clock, guard, box } = deps;
  const lockKey = (userId: number) => `#totp:${userId}`;

  /** The step a six-digit code is accepted for (±1 step), or null. */
  function stepOf(secret: string, token: string): number | null {
    const timestamp = clock.now().getTime();
    const delta = TOTP.validate({
      token,
      secret: Secret.fromBase32(secret),
      digits: TOTP_DIGITS,
      period: TOTP_PERIOD_S,
      timestamp,
      window: DRIFT_STEPS,
    });
    return delta === null ? null : TOTP.counter({ period: TOTP_PERIOD_S, timestamp }) + delta;
  }

  /** Whether `typed` is a current authenticator code (taken, so never again) or an unused recovery code (used up). */
  async function accept(tx: Executor, userId: number, typed: string, mode: Mode): Promise<boolean> {
    const token = typed.replace(/\s/g, '');
    if (new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(token)) {
      const factor = await repo.findFactor(tx, userId);
      const secret = factor && box.open(userId, factor.secret);
      const step = secret ? stepOf(secret, token) : null;
      if (step === null) return false;
      return repo.acceptStep(tx, userId, step, mode === 'confirm' ? clock.now() : null);
    }
    const recovery = mode === 'use' ? normalizeRecoveryCode(typed) : null;
    return recovery !== null && repo.useRecoveryCode(tx, userId, hashRecoveryCode(recovery), clock.now());
  }

  /**
   * Checks a code through the sign-in lockout (counted before it is checked, on the person's own
   * key: a correct password does not clear it), then runs `then` in the same transaction. A wrong
   * code changes nothing, is answered as slowly as a wrong password, and throws `fail()`.
   */
  return async function withCode<T>(
    userId: number,
    typed: string,
    ip: string,
    mode: Mode,
    fail: () => AppError,
    then: (tx: Executor) => Promise<T>,
    onFailure?: () => Promise<void>,
  ): Promise<T> {
    await guard.assertOpen(lockKey(userId), ip);
    const delay = await guard.attempt(lockKey(userId), ip);
    const outcome = await db.transaction(async (tx) =>
      (await accept(tx, userId, typed, mode)) ? { value: await then(tx) } : null,
    );
    if (!outcome) {
      await onFailure?.();
      if (delay) await sleep(delay);
      throw fail();
    }
    await guard.succeeded(lockKey(userId), ip);
    return outcome.value;
  };
}

/**
 * The TOTP second factor: set-up by QR code confirmed by a first code, ten single-use recovery
 * codes, the second step of a password sign-in, and turning it off with a current code.
 */
export function createTotpService(deps: TotpServiceDeps) {
  const { db, clock, guard } = deps;
  const box: SecretBox = createSecretBox(deps.serverSecret);
  const withCode = createCodeChecker({ db, clock, guard, box });

  async function freshRecoveryCodes(tx: Executor, userId: number): Promise<{ recovery_codes: string[] }> {
    const codes = newRecoveryCodes();
    const hashes = codes.map((c) => hashRecoveryCode(normalizeRecoveryCode(c)!));
    await repo.replaceRecoveryCodes(tx, userId, hashes, clock.now());
    return { recovery_codes: codes };
  }

  async function confirmedFactor(userId: number) {
    const factor = await repo.findFactor(db, userId);
    if (!factor?.confirmedAt) throw Errors.conflict('no second factor is set up');
    return factor;
  }

  return {
    async status(user: { id: number; role: string }): Promise<TotpStatus> {
      const factor = await repo.findFactor(db, user.id);
      const confirmed = factor?.confirmedAt ?? null;
      return {
        enabled: confirmed !== null,
        pending: factor !== undefined && confirmed === null,
        confirmed_at: confirmed?.toISOString() ?? null,
        recovery_codes_left: confirmed ? await repo.countUnusedRecoveryCodes(db, user.id) : 0,
        required: user.role === 'admin' && deps.requireAdminTotp,
      };
    },

    /** A new secret waiting for its first code; it replaces an earlier unconfirmed one. */
    async setUp(userId: number): Promise<{ secret: string; uri: string; qr_image: string }> {
      const user = await authRepo.findUser(db, userId);
      if (!user) throw Errors.unauthorized();
      const secret = new Secret({ size: 20 }).base32;
      if (!(await repo.putPendingFactor(db, userId, box.seal(userId, secret), clock.now())))
        throw Errors.conflict('a second factor is already set up; turn it off first');
      const uri = new TOTP({
        issuer: ISSUER,
        label: user.username ?? user.nickname,
        secret,
        digits: TOTP_DIGITS,
        period: TOTP_PERIOD_S,
      }).toString();
      const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
      return { secret, uri, qr_image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
    },

    /** The first code confirms the set-up; the ten recovery codes are answered this once. */
    async confirm(userId: number, code: string, ip: string): Promise<{ recovery_codes: string[] }> {
      const factor = await repo.findFactor(db, userId);
      if (!factor) throw Errors.conflict('no set-up is waiting for a code; start one first');
      if (factor.confirmedAt) throw Errors.conflict('the second factor is already confirmed');
      return withCode(userId, code, ip, 'confirm', wrongCode, (tx) => freshRecoveryCodes(tx, userId));
    },

    /** Ten new recovery codes for a current code; the old ones stop working. */
    async regenerateRecoveryCodes(userId: number, code: string, ip: string): Promise<{ recovery_codes: string[] }> {
      await confirmedFactor(userId);
      return withCode(userId, code, ip, 'use', wrongCode, (tx) => freshRecoveryCodes(tx, userId));
    },

    /**
     * Turns the factor off. A confirmed one needs a current authenticator code or a recovery code,
     * never the password alone: the password is what the second factor exists not to trust alone.
     * A set-up never confirmed is dropped without one.
     */
    async disable(userId: number, code: string | undefined, ip: string): Promise<void> {
      const factor = await repo.findFactor(db, userId);
      if (!factor) return;
      if (!factor.confirmedAt) return repo.deleteFactor(db, userId);
      if (!code) throw Errors.field('code', 'is required to turn a confirmed second factor off');
      await withCode(userId, code, ip, 'use', wrongCode, (tx) => repo.deleteFactor(tx, userId));
    },

    /** The second step of a password sign-in: the ticket and a code (or a recovery code) give the sign-in's answer. */
    async completeSignIn(ticket: string, code: string, client: ClientInfo): Promise<LoginResult> {
      const userId = await tokenUser(deps.tokens, ticket);
      const user = await authRepo.findUser(db, userId);
      if (!user || !(await repo.hasConfirmedFactor(db, userId))) throw Errors.badSecondFactorTicket();
      if (user.deletedAt || user.status === 'disabled') throw Errors.accountBlocked();
      const counted = () => (user.username ? authRepo.countFailedSignIn(db, user.username) : Promise.resolve());
      await withCode(userId, code, client.ip ?? 'unknown', 'use', Errors.badSecondFactor, async () => null, counted);
      return deps.auth.signInTransaction(async (tx) => {
        const locked = await authRepo.lockUser(tx, userId);
        if (!locked || locked.deletedAt || locked.status === 'disabled') throw Errors.accountBlocked();
        return deps.auth.signIn(tx, locked, client);
      });
    },
  };
}

async function tokenUser(tokens: TokenService, ticket: string): Promise<number> {
  let sub: string;
  try {
    sub = (await tokens.verifyPurpose(ticket, TICKET_PURPOSE)).sub;
  } catch {
    throw Errors.badSecondFactorTicket();
  }
  if (!/^[1-9]\d{0,9}$/.test(sub) || Number(sub) > 2147483647) throw Errors.badSecondFactorTicket();
  return Number(sub);
}

export type TotpService = ReturnType<typeof createTotpService>;
