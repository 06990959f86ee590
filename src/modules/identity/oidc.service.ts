import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { Errors } from '../../lib/errors.ts';
import type { Locale } from '../categories/index.ts';
import * as authRepo from './auth.repo.ts';
import type { AuthService, ClientInfo, LoginResult } from './auth.service.ts';
import { setUpNewUser } from './new-user.ts';
import { countOwn as countPasskeys } from './passkeys.repo.ts';
import { createOidcFlows, type OidcCallback, type OidcFlows, type ProviderAccount } from './oidc.flows.ts';
import * as repo from './oidc.repo.ts';
import { signInMethods } from './sign-in-methods.rules.ts';

export type { OidcCallback } from './oidc.flows.ts';

export interface OidcIdentityView {
  id: number;
  issuer: string;
  email: string | null;
  created_at: string;
  last_used_at: string | null;
}

export interface OidcServiceDeps {
  db: Db;
  config: Pick<Config, 'publicUrl' | 'oidc' | 'defaultCurrency' | 'passwordSignIn'>;
  auth: Pick<AuthService, 'signIn' | 'signInTransaction'>;
  clock: Clock;
}

function toView(row: repo.OidcIdentityRow): OidcIdentityView {
  return {
    id: row.id,
    issuer: row.issuer,
    email: row.email,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * Signing in with the provider: the person linked to its (issuer, subject), or a new person at the
 * first sign-in (the project's new-user set-up), whatever their e-mail address says.
 */
function signInWithProvider(deps: OidcServiceDeps, flows: OidcFlows) {
  const { auth } = deps;
  async function newPerson(
    tx: Parameters<Parameters<typeof auth.signInTransaction>[0]>[0],
    who: ProviderAccount,
    locale: Locale,
  ) {
    const fallback = `${locale === 'zh' ? '用户' : 'User'} ${who.subject.slice(-4)}`;
    const user = await authRepo.insertUser(tx, {
      nickname: who.name ? [...who.name].slice(0, 30).join('') : fallback,
      role: 'user',
      baseCurrency: deps.config.defaultCurrency,
    });
    await setUpNewUser(tx, user, locale);
    const at = deps.clock.now();
    const { issuer, subject, email } = who;
    await repo.insertIdentity(tx, { userId: user.id, issuer, subject, email, createdAt: at, lastUsedAt: at });
    return user;
  }

  return {
    /** Starts a sign-in: the provider's authorization URL, with the state the client keeps to match the answer. */
    startSignIn: () => flows.start('sign-in', null),

    async finishSignIn(callback: OidcCallback, locale: Locale, client: ClientInfo): Promise<LoginResult> {
      const who = await flows.finish(callback, 'sign-in', null);
      try {
        return await auth.signInTransaction(async (tx) => {
          const identity = await repo.findIdentity(tx, who.issuer, who.subject);
          if (!identity) return auth.signIn(tx, await newPerson(tx, who, locale), client);
          const user = await authRepo.lockUser(tx, identity.userId);
          if (!user || user.deletedAt || user.status === 'disabled') throw Errors.accountBlocked();
          await repo.touchIdentity(tx, identity.id, deps.clock.now(), who.email);
          return auth.signIn(tx, user, client);
        });
      } catch (err) {
        // the same provider account's first sign-in twice at once: the unique index lets one through
        if (isUniqueViolation(err)) throw Errors.conflict('this account was just created; sign in again');
        throw err;
      }
    },
  };
}

/** A person's linked provider accounts: linked by the person only, unlinked unless it is their last way in. */
function linkedAccounts(deps: OidcServiceDeps, flows: OidcFlows) {
  const { db } = deps;
  return {
    startLink: (userId: number) => flows.start('link', userId),

    async finishLink(userId: number, callback: OidcCallback): Promise<OidcIdentityView> {
      const who = await flows.finish(callback, 'link', userId);
      const existing = await repo.findIdentity(db, who.issuer, who.subject);
      if (existing?.userId === userId) throw Errors.conflict('this provider account is already linked');
      if (existing) throw Errors.conflict('this provider account belongs to another user');
      try {
        return await db.transaction(async (tx) => {
          const { issuer, subject, email } = who;
          const row = await repo.insertIdentity(tx, { userId, issuer, subject, email, createdAt: deps.clock.now() });
          // a demo account with a lasting way in is kept
          await authRepo.updateUser(tx, userId, { isDemo: false });
          return toView(row);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw Errors.conflict('this provider account belongs to another user');
        throw err;
      }
    },

    async list(userId: number): Promise<{ list: OidcIdentityView[] }> {
      return { list: (await repo.listOwn(db, userId)).map(toView) };
    },

    /** Refused (42201) when it is the person's last way to sign in. */
    async unlink(userId: number, id: number): Promise<void> {
      await db.transaction(async (tx) => {
        const user = await authRepo.lockUser(tx, userId);
        if (!user || user.deletedAt) throw Errors.notFound('user');
        const linked = await repo.listOwn(tx, userId);
        if (!linked.some((l) => l.id === id)) throw Errors.notFound('linked account');
        // with password sign-in switched off a password is no way in
        const after = deps.config.passwordSignIn === false ? { ...user, passwordHash: null } : user;
        if (!signInMethods(after, await countPasskeys(tx, userId), linked.length - 1).length)
          throw Errors.rule('the last remaining sign-in method cannot be removed');
        await repo.deleteOwn(tx, userId, id);
      });
    },
  };
}

/**
 * OpenID Connect sign-in and linking (oidc.flows.ts speaks the protocol through openid-client). The
 * provider's (issuer, subject) names a person in oidc_identities; an e-mail address never does.
 */
export function createOidcService(deps: OidcServiceDeps) {
  const flows = createOidcFlows(deps);
  return { ...signInWithProvider(deps, flows), ...linkedAccounts(deps, flows) };
}

export type OidcService = ReturnType<typeof createOidcService>;
