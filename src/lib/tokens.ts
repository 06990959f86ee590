import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { Errors } from './errors.ts';

// Token signing sits below the plugins and the feature modules: the tokens plugin decorates the app
// with it, identity issues sessions with it, and the first screen reads a refresh token's lifetime.

export const ACCESS_TTL_S = 7200;
export const REFRESH_TTL_S = 30 * 24 * 3600;

export interface AccessClaims {
  userId: number;
  role: string;
  jti: string;
  /** the session (refresh-token family) the token was issued for; null for tokens without one */
  sessionId: number | null;
}

export interface RefreshClaims {
  userId: number;
  jti: string;
  family: string;
  exp: number;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export interface TokenService {
  signAccess(userId: number, role: string, sessionId?: number): Promise<string>;
  signRefresh(userId: number, family: string): Promise<{ token: string; jti: string; expiresAt: Date }>;
  /** throws 40101 for anything but a valid, unexpired HS256 access token */
  verifyAccess(token: string): Promise<AccessClaims>;
  /** throws 40102 for anything but a valid, unexpired HS256 refresh token */
  verifyRefresh(token: string): Promise<RefreshClaims>;
  /** signs a short-lived purpose-bound token (export downloads) */
  signPurpose(purpose: string, subject: string, ttlS: number, extra?: Record<string, unknown>): Promise<string>;
  verifyPurpose(token: string, purpose: string): Promise<{ sub: string } & Record<string, unknown>>;
}

export function createTokenService(secret: string, now: () => number = () => Date.now()): TokenService {
  // imported once: handing jose the raw bytes would import the key again on every verification
  const key = crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  const nowS = () => Math.floor(now() / 1000);
  // Verified access tokens, so that each request does not pay for an HMAC; an entry is only used
  // before its token's expiry, and the user's status is checked on every request anyway.
  const verified = new Map<string, AccessClaims & { exp: number }>();
  const MAX_VERIFIED = 20_000;

  async function sign(
    payload: Record<string, unknown>,
    sub: string,
    ttlS: number,
    jti = randomUUID(),
  ): Promise<string> {
    const iat = nowS();
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(sub)
      .setJti(jti)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlS)
      .sign(await key);
  }

  async function verify(token: string, typ: string) {
    try {
      // algorithms pinned: "none" and asymmetric algorithms are refused by jose before any key use
      const { payload } = await jwtVerify(token, await key, { algorithms: ['HS256'], currentDate: new Date(now()) });
      if (payload.typ !== typ || typeof payload.sub !== 'string' || typeof payload.jti !== 'string') return null;
      return payload;
    } catch (err) {
      if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
      throw err;
    }
  }

  function userIdOf(sub: string): number | null {
    if (!/^[1-9]\d{0,9}$/.test(sub)) return null;
    const n = Number(sub);
    return n <= 2147483647 ? n : null;
  }

  return {
    signAccess: (userId, role, sessionId) =>
      sign({ typ: 'access', role, ...(sessionId ? { sid: sessionId } : {}) }, String(userId), ACCESS_TTL_S),
    async signRefresh(userId, family) {
      const jti = randomUUID();
      const token = await sign({ typ: 'refresh', fam: family }, String(userId), REFRESH_TTL_S, jti);
      return { token, jti, expiresAt: new Date((nowS() + REFRESH_TTL_S) * 1000) };
    },
    async verifyAccess(token) {
      const hit = verified.get(token);
      if (hit && hit.exp > now() / 1000)
        return { userId: hit.userId, role: hit.role, jti: hit.jti, sessionId: hit.sessionId };
      const p = await verify(token, 'access');
      const userId = p ? userIdOf(p.sub!) : null;
      if (!p || userId === null) throw Errors.unauthorized('access token invalid or expired');
      const sid = p.sid;
      const sessionId = typeof sid === 'number' && Number.isInteger(sid) && sid > 0 ? sid : null;
      const claims = { userId, role: String(p.role ?? 'user'), jti: p.jti!, sessionId };
      if (verified.size >= MAX_VERIFIED) verified.clear();
      verified.set(token, { ...claims, exp: p.exp! });
      return claims;
    },
    async verifyRefresh(token) {
      const p = await verify(token, 'refresh');
      const userId = p ? userIdOf(p.sub!) : null;
      if (!p || userId === null || typeof p.fam !== 'string') throw Errors.badRefresh();
      return { userId, jti: p.jti!, family: p.fam, exp: p.exp! };
    },
    signPurpose: (purpose, subject, ttlS, extra = {}) => sign({ ...extra, typ: purpose }, subject, ttlS),
    async verifyPurpose(token, purpose) {
      const p = await verify(token, purpose);
      if (!p) throw Errors.unauthorized('download token invalid or expired');
      return p as { sub: string } & Record<string, unknown>;
    },
  };
}
