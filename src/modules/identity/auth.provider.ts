import { randomInt } from 'node:crypto';
import { Errors } from '../../lib/errors.ts';
import { type Locale } from '../categories/index.ts';
import { firstDemoDay, seedDemoData } from '../demo/index.ts';
import {
  assertUsable,
  signIn,
  signInTransaction,
  type AuthDeps,
  type ClientInfo,
  type LoginResult,
} from './auth.deps.ts';
import { setUpNewUser } from './new-user.ts';

/** Signs in with a WeChat code; `locale` names the default categories of a user created by this sign-in. */
export async function providerLogin(
  deps: AuthDeps,
  code: string,
  locale: Locale = 'en',
  client: ClientInfo = { userAgent: null, ip: null },
): Promise<LoginResult> {
  const { repo } = deps;
  const subject = await deps.provider.resolve(code);
  const makeAdmin = deps.config.adminOpenids.includes(subject);
  return signInTransaction(deps, async (tx) => {
    let user = await repo.findUserByProvider(tx, 'wechat', subject);
    if (!user) {
      user = await repo.insertUser(tx, {
        provider: 'wechat',
        providerSubject: subject,
        nickname: `${locale === 'zh' ? '用户' : 'User'} ${subject.slice(-4)}`,
        role: makeAdmin ? 'admin' : 'user',
        baseCurrency: deps.config.defaultCurrency,
      });
      await setUpNewUser(tx, user, locale);
    } else {
      user = await repo.lockUser(tx, user.id);
      assertUsable(user);
      if (makeAdmin && user.role !== 'admin') {
        await repo.setRole(tx, user.id, 'admin');
        user = { ...user, role: 'admin' };
      }
    }
    return signIn(deps, tx, user, client);
  });
}

/** A new demo user with sample data, signed in; `locale` names its categories and sample data. */
export async function demoLogin(
  deps: AuthDeps,
  locale: Locale = 'en',
  client: ClientInfo = { userAgent: null, ip: null },
): Promise<LoginResult> {
  const { repo, clock } = deps;
  if (!deps.config.demoLogin) throw Errors.notFound('route POST /api/auth/demo-login');
  return signInTransaction(deps, async (tx) => {
    const zh = locale === 'zh';
    const user = await repo.insertUser(tx, {
      // digits only: a Chinese screen shows no Latin letters, whatever the random draw
      nickname: `${zh ? '体验用户' : 'Demo'} ${randomInt(1000, 10000)}`,
      isDemo: true,
      slogan: zh ? '随便试试' : 'Trying things out',
      baseCurrency: deps.config.defaultCurrency,
    });
    await setUpNewUser(tx, user, locale, firstDemoDay(clock.now(), deps.config.appTimezone));
    await seedDemoData(tx, user.id, clock.now(), deps.config.appTimezone, locale);
    return signIn(deps, tx, user, client);
  });
}
