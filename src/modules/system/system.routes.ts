import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { offeredAuthMethods } from '../identity/index.ts';
import { type createConfigService, PublicConfig } from './config.service.ts';
import { RETRY_AFTER_S } from '../../lib/errors.ts';

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  db: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
  log: Type.Union([Type.Literal('ok'), Type.Literal('error')], {
    description: 'error: the log file cannot be written; lines go to stdout meanwhile',
  }),
  version: Type.String(),
  uptime_s: Type.Integer(),
  time: Type.String({ format: 'date-time' }),
});

const ConfigUpdate = Type.Object(
  {
    app_version: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    tagline: Type.Optional(Type.String({ maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 5000 })),
  },
  { minProperties: 1 },
);

/** What the web client needs before sign-in: the display texts, the currency and the sign-in methods on offer. */
const ClientConfig = Type.Object({
  ...PublicConfig.properties,
  default_currency: Type.String({
    pattern: '^[A-Z]{3}$',
    description: 'ISO 4217 code of the currency amounts are shown in (DEFAULT_CURRENCY)',
  }),
  auth_methods: Type.Array(
    Type.Union([
      Type.Literal('password'),
      Type.Literal('passkey'),
      Type.Literal('wechat'),
      Type.Literal('oidc'),
      Type.Literal('demo'),
    ]),
    {
      description:
        'the sign-in methods this server offers: `password` unless PASSWORD_SIGN_IN=false, `passkey` with ' +
        'PUBLIC_URL, `wechat` when configured, `oidc` with OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and ' +
        'PUBLIC_URL, `demo` unless DEMO_LOGIN=false',
    },
  ),
  oidc_button_label: Type.String({
    description: "the OpenID Connect button's text (OIDC_BUTTON_LABEL); empty: the client's own words",
  }),
  registration: Type.Union([Type.Literal('open'), Type.Literal('closed')], {
    description: 'whether new accounts may be registered (REGISTRATION)',
  }),
});

const startedAt = Date.now();

export default async function systemRoutes(
  fastify: FastifyInstance,
  { systemConfig: configService }: { systemConfig: ReturnType<typeof createConfigService> },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  await configService.seed();

  app.get(
    '/api/health',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Service health: 200 when the database answers a real read, 503 otherwise',
        description:
          '`status` is `degraded` while the database or the log file fails; only a database failure answers 503 ' +
          '(with `Retry-After`).',
        response: { 200: Health, 503: Health },
      },
    },
    async (_req, reply) => {
      let dbOk = true;
      try {
        await Promise.race([
          app.database.ping(),
          new Promise((_, reject) => setTimeout(() => reject(new Error('database ping timed out')), 3000).unref()),
        ]);
      } catch {
        dbOk = false;
      }
      const logOk = app.logHealth().ok;
      const body = {
        status: dbOk && logOk ? ('ok' as const) : ('degraded' as const),
        db: dbOk ? ('ok' as const) : ('error' as const),
        log: logOk ? ('ok' as const) : ('error' as const),
        version: app.config.version,
        uptime_s: Math.floor((Date.now() - startedAt) / 1000),
        time: new Date().toISOString(),
      };
      if (!dbOk) reply.header('Retry-After', String(RETRY_AFTER_S));
      return reply.code(dbOk ? 200 : 503).send(body);
    },
  );

  app.get(
    '/api/config',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'App version, tagline and description (about dialog), the display currency and the sign-in methods',
        response: { 200: ClientConfig },
      },
    },
    async () => ({
      ...(await configService.get()),
      default_currency: app.config.defaultCurrency,
      auth_methods: offeredAuthMethods(app.config),
      oidc_button_label: app.config.oidc?.buttonLabel ?? '',
      registration: app.config.registration === 'closed' ? ('closed' as const) : ('open' as const),
    }),
  );

  app.put(
    '/api/admin/config',
    {
      config: { auth: 'admin' },
      schema: { summary: 'Edit the system configuration', body: ConfigUpdate, response: { 200: PublicConfig } },
    },
    async (req) => configService.update(req.body),
  );
}
