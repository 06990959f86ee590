import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { Errors } from '../../lib/errors.ts';
import { sha256 } from '../../lib/tokens.ts';
import type { ApiTokenScope, AuthUser } from '../../types.ts';
import * as repo from './api-tokens.repo.ts';

/**
 * Personal API tokens look like GitHub's: a recognisable prefix, 30 random base62 characters and
 * a 6-character base62 CRC32 of everything before it, so secret scanners can find leaked ones
 * and a mistyped token is refused without a database lookup.
 */
export const TOKEN_PREFIX = 'lgr_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
export const MAX_TOKENS_PER_USER = 50;
/** last-used times are written at most this often per token */
const TOUCH_EVERY_MS = 60_000;

function base62(n: number, width: number): string {
  let out = '';
  for (let v = n; v > 0; v = Math.floor(v / 62)) out = BASE62[v % 62] + out;
  return out.padStart(width, '0');
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: bytes above it are dropped so every character is equally likely
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

function checksum(body: string): string {
  return base62(crc32(body), CHECKSUM_LENGTH);
}

export function generateToken(): string {
  const body = TOKEN_PREFIX + randomBase62(RANDOM_LENGTH);
  return body + checksum(body);
}

/** Whether a string has the shape and checksum of a personal API token. */
export function isWellFormedToken(token: string): boolean {
  if (!token.startsWith(TOKEN_PREFIX) || token.length !== TOKEN_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH)
    return false;
  if (!/^[0-9A-Za-z]+$/.test(token.slice(TOKEN_PREFIX.length))) return false;
  const body = token.slice(0, -CHECKSUM_LENGTH);
  return checksum(body) === token.slice(-CHECKSUM_LENGTH);
}

export interface ApiTokenView {
  id: number;
  name: string;
  scopes: ApiTokenScope[];
  prefix: string;
  expires_at: string;
  last_used_at: string | null;
  created_at: string;
}

function toView(row: repo.ApiTokenRow): ApiTokenView {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes as ApiTokenScope[],
    prefix: row.prefix,
    expires_at: row.expiresAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

export interface ApiTokenAuthenticator {
  /** the user a personal API token stands for; 40101 when unknown, malformed or expired, 40104 for a blocked user */
  authenticate(token: string): Promise<AuthUser>;
}

export function createApiTokenService({ db, clock }: { db: Db; clock: Clock }) {
  const now = () => clock.now();
  return {
    async list(userId: number): Promise<{ list: ApiTokenView[] }> {
      return { list: (await repo.listOwn(db, userId)).map(toView) };
    },

    async create(
      userId: number,
      body: { name: string; scopes: ApiTokenScope[]; expires_in_days?: number },
    ): Promise<ApiTokenView & { token: string }> {
      const name = body.name.trim();
      if (!name) throw Errors.field('name', 'must not be blank');
      const scopes = [...new Set(body.scopes)].sort();
      if (!scopes.length) throw Errors.field('scopes', 'must name at least one scope');
      return db.transaction(async (tx) => {
        if ((await repo.countOwn(tx, userId)) >= MAX_TOKENS_PER_USER)
          throw Errors.rule(`at most ${MAX_TOKENS_PER_USER} API tokens per user`);
        const token = generateToken();
        const at = now();
        const row = await repo.insertToken(tx, {
          userId,
          name,
          scopes,
          prefix: token.slice(0, TOKEN_PREFIX.length + 4),
          tokenHash: sha256(token),
          expiresAt: new Date(at.getTime() + (body.expires_in_days ?? 90) * 86_400_000),
          createdAt: at,
        });
        return { ...toView(row), token };
      });
    },

    async remove(userId: number, id: number): Promise<void> {
      if (!(await repo.deleteOwn(db, userId, id))) throw Errors.notFound('API token');
    },

    authenticator(): ApiTokenAuthenticator {
      return {
        async authenticate(token) {
          if (!isWellFormedToken(token)) throw Errors.unauthorized('API token invalid');
          const found = await repo.findByHash(db, sha256(token));
          const at = now();
          if (!found) throw Errors.unauthorized('API token invalid or revoked');
          if (found.token.expiresAt <= at) throw Errors.unauthorized('API token expired');
          if (found.deletedAt || found.status === 'disabled') throw Errors.accountBlocked();
          if (!found.token.lastUsedAt || at.getTime() - found.token.lastUsedAt.getTime() >= TOUCH_EVERY_MS) {
            await repo.touch(db, found.token.id, at);
          }
          // a token never carries administrator rights, whoever owns it
          return {
            id: found.token.userId,
            role: 'user',
            sessionId: null,
            apiToken: { id: found.token.id, scopes: found.token.scopes as ApiTokenScope[] },
          };
        },
      };
    },
  };
}

export type ApiTokenService = ReturnType<typeof createApiTokenService>;
