import { and, eq, isNull } from 'drizzle-orm';
import type { Clock } from '../../lib/clock.ts';
import { Type, type Static } from 'typebox';
import { isValidTimezone } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { requireCurrency } from '../../lib/currency.ts';
import { Errors } from '../../lib/errors.ts';
import { Id, Nullable, Timestamp } from '../../lib/schemas.ts';
import { cleanText } from '../../lib/text.ts';
import { isSafeLink } from '../../lib/url.ts';
import { switchBaseCurrency } from '../accounts/index.ts';
import { countOidcIdentities, countPasskeys, signInMethods } from '../identity/index.ts';
import { storeImage } from './images.ts';

export const Profile = Type.Object({
  id: Id,
  nickname: Type.String(),
  avatar_url: Nullable(Type.String()),
  slogan: Type.String(),
  timezone: Nullable(Type.String({ description: 'IANA zone; null means the server default (APP_TIMEZONE)' })),
  role: Type.Union([Type.Literal('user'), Type.Literal('admin')]),
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
  is_demo: Type.Boolean(),
  created_at: Timestamp,
  username: Nullable(Type.String({ description: 'the sign-in name; null until chosen' })),
  auth_methods: Type.Array(
    Type.Union([Type.Literal('password'), Type.Literal('passkey'), Type.Literal('wechat'), Type.Literal('oidc')]),
    { description: 'the ways this account can sign in again' },
  ),
  last_sign_in_at: Nullable(Type.String({ format: 'date-time', description: 'the sign-in before the current one' })),
  failed_sign_ins: Type.Integer({ description: 'failed password sign-ins since the sign-in before the current one' }),
  base_currency: Type.String({
    pattern: '^[A-Z]{3}$',
    description: 'ISO 4217 code statistics, budgets and net worth are in',
  }),
  notify_splits: Type.Boolean({
    description: 'personal notifications of shared group expenses and settlements (false: opted out)',
  }),
});
export type Profile = Static<typeof Profile>;

export const ProfileUpdate = Type.Object(
  {
    nickname: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: '1 to 30 characters after trimming' }),
    ),
    avatar_url: Type.Optional(
      Nullable(
        Type.String({ maxLength: 2048, description: 'http(s) URL or an in-app path such as /api/avatars/<key>' }),
      ),
    ),
    slogan: Type.Optional(Type.String({ maxLength: 200, description: '0 to 60 characters after trimming' })),
    timezone: Type.Optional(
      Nullable(Type.String({ maxLength: 64, description: 'an IANA time zone such as Asia/Shanghai; null resets' })),
    ),
    base_currency: Type.Optional(
      Type.String({
        maxLength: 3,
        description:
          'ISO 4217 code. Only while you have no transactions and no exchange rates (else 42201): stored base ' +
          'amounts and rates are in the old ' +
          'base currency and would silently change meaning. Accounts in the old base currency with a zero opening ' +
          'balance (the starting cash account) follow.',
      }),
    ),
    notify_splits: Type.Optional(
      Type.Boolean({ description: 'false: no personal notifications of shared expenses and settlements' }),
    ),
  },
  { additionalProperties: false },
);

export function toProfile(row: typeof users.$inferSelect, passkeyCount = 0, oidcCount = 0): Profile {
  return {
    id: row.id,
    nickname: row.nickname,
    avatar_url: row.avatarUrl,
    slogan: row.slogan,
    timezone: row.timezone,
    role: row.role,
    status: row.status,
    is_demo: row.isDemo,
    created_at: row.createdAt.toISOString(),
    username: row.username,
    auth_methods: signInMethods(row, passkeyCount, oidcCount),
    last_sign_in_at: row.previousSignInAt?.toISOString() ?? null,
    failed_sign_ins: row.failedSignInsBefore + row.failedSignIns,
    base_currency: row.baseCurrency,
    notify_splits: row.notifySplits,
  };
}

export interface MeServiceDeps {
  db: Db;
  clock: Clock;
}

export function createMeService({ db, clock }: MeServiceDeps) {
  async function get(userId: number): Promise<Profile> {
    const [row] = await db
      .select()
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)));
    if (!row) throw Errors.notFound('user');
    return toProfile(row, await countPasskeys(db, userId), await countOidcIdentities(db, userId));
  }

  return {
    get,
    async update(userId: number, body: Static<typeof ProfileUpdate>): Promise<Profile> {
      const patch: Partial<typeof users.$inferInsert> = {};
      if (body.nickname !== undefined) patch.nickname = cleanText(body.nickname, 'nickname', 1, 30);
      if (body.slogan !== undefined) patch.slogan = cleanText(body.slogan, 'slogan', 0, 60);
      if (body.avatar_url !== undefined) {
        if (body.avatar_url !== null && !isSafeLink(body.avatar_url))
          throw Errors.field('avatar_url', 'must be an http(s) URL or an in-app path');
        patch.avatarUrl = body.avatar_url;
      }
      if (body.timezone !== undefined) {
        if (body.timezone !== null && !isValidTimezone(body.timezone))
          throw Errors.field('timezone', 'must be an IANA time zone');
        patch.timezone = body.timezone;
      }
      if (body.notify_splits !== undefined) patch.notifySplits = body.notify_splits;
      const base =
        body.base_currency === undefined ? undefined : requireCurrency(body.base_currency, 'base_currency').code;
      if (Object.keys(patch).length || base !== undefined) {
        await db.transaction(async (tx) => {
          if (base !== undefined) await switchBaseCurrency(tx, userId, base, clock.now());
          if (Object.keys(patch).length)
            await tx
              .update(users)
              .set({ ...patch, updatedAt: clock.now() })
              .where(and(eq(users.id, userId), isNull(users.deletedAt)));
        });
      }
      return get(userId);
    },
    async setAvatar(userId: number, buf: Buffer): Promise<{ avatar_url: string }> {
      return db.transaction(async (tx) => {
        const img = await storeImage(tx, userId, buf);
        const avatarUrl = `/api/avatars/${img.key}`;
        await tx.update(users).set({ avatarUrl, updatedAt: clock.now() }).where(eq(users.id, userId));
        return { avatar_url: avatarUrl };
      });
    },
  };
}
