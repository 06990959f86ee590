import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    /** identity provider name, e.g. "wechat"; null for demo users */
    provider: text('provider'),
    /** the provider's subject (WeChat openid) */
    providerSubject: text('provider_subject'),
    /** sign-in name for password login, unique case-insensitively; null until chosen */
    username: text('username'),
    /** argon2id PHC string; null when the account has no password */
    passwordHash: text('password_hash'),
    /** failed password sign-ins since the last successful sign-in */
    failedSignIns: integer('failed_sign_ins').notNull().default(0),
    /** failed password sign-ins between the previous sign-in and the last one (shown on the profile) */
    failedSignInsBefore: integer('failed_sign_ins_before').notNull().default(0),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    previousSignInAt: timestamp('previous_sign_in_at', { withTimezone: true }),
    nickname: text('nickname').notNull(),
    avatarUrl: text('avatar_url'),
    slogan: text('slogan').notNull().default(''),
    /** IANA zone; null means APP_TIMEZONE */
    timezone: text('timezone'),
    /** ISO 4217 code statistics, budgets and net worth are in (config DEFAULT_CURRENCY for new users) */
    baseCurrency: text('base_currency').notNull().default('CNY'),
    role: text('role', { enum: ['user', 'admin'] })
      .notNull()
      .default('user'),
    status: text('status', { enum: ['active', 'disabled'] })
      .notNull()
      .default('active'),
    isDemo: boolean('is_demo').notNull().default(false),
    /** personal notifications of shared expenses and settlements; false opts out */
    notifySplits: boolean('notify_splits').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_provider_subject_uq')
      .on(t.provider, t.providerSubject)
      .where(sql`${t.provider} is not null`),
    uniqueIndex('users_username_lower_uq').on(sql`lower(${t.username})`),
    index('users_demo_created_idx')
      .on(t.createdAt)
      .where(sql`${t.isDemo}`),
    index('users_created_idx').on(t.createdAt),
  ],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the token's jti; the token itself is never stored */
    jtiHash: text('jti_hash').notNull(),
    family: text('family').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** set when the token was exchanged for a new pair */
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    /** set when the token can no longer be used for any reason */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('refresh_tokens_jti_uq').on(t.jtiHash),
    index('refresh_tokens_user_idx').on(t.userId),
    index('refresh_tokens_family_idx').on(t.family),
  ],
);
