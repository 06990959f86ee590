import { Errors } from '../../lib/errors.ts';

export interface IdentityProvider {
  /**
   * exchanges a login code for the provider's subject; throws 40103 on refusal, 50301 when
   * unreachable, 40401 when the server has no provider settings
   */
  resolve(code: string): Promise<string>;
}

interface Code2SessionAnswer {
  openid?: string;
  errcode?: number;
  errmsg?: string;
}

/** WeChat mini-program login: GET {base}/sns/jscode2session. */
export function createWechatProvider(opts: {
  appId: string | null;
  secret: string | null;
  apiBase: string;
  timeoutMs?: number;
}): IdentityProvider {
  return {
    async resolve(code) {
      // A feature switched off by configuration, as passkeys without PUBLIC_URL: no retry can help,
      // so it is not a 503 with Retry-After.
      if (!opts.appId || !opts.secret) {
        throw Errors.featureOff('third-party login is not configured on this server (WECHAT_APPID, WECHAT_SECRET)');
      }
      const url = new URL('/sns/jscode2session', opts.apiBase);
      url.search = new URLSearchParams({
        appid: opts.appId,
        secret: opts.secret,
        js_code: code,
        grant_type: 'authorization_code',
      }).toString();
      let res: Response;
      try {
        res = await fetch(url, {
          signal: AbortSignal.timeout(opts.timeoutMs ?? 5000),
          headers: { accept: 'application/json' },
        });
      } catch {
        throw Errors.unavailable('the identity provider is unreachable');
      }
      if (res.status >= 500) throw Errors.unavailable('the identity provider is unavailable');
      let body: Code2SessionAnswer;
      try {
        body = (await res.json()) as Code2SessionAnswer;
      } catch {
        throw Errors.unavailable('the identity provider answered something unreadable');
      }
      // -1 is WeChat's "system busy": a provider problem, not a refusal of the code
      if (body.errcode === -1) throw Errors.unavailable('the identity provider is busy');
      if (!res.ok || (body.errcode && body.errcode !== 0) || typeof body.openid !== 'string' || !body.openid) {
        throw Errors.providerRefused();
      }
      return body.openid;
    },
  };
}
