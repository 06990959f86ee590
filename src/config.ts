import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import path from 'node:path';
import { currencyInfo } from './lib/currency.ts';
import { isValidTimezone } from './lib/dates.ts';

export { isValidTimezone };

const pkg = createRequire(import.meta.url)('../package.json') as { version: string };

export interface RateLimitConfig {
  enabled: boolean;
  /** requests per minute per user (per IP when unauthenticated) */
  global: number;
  /** requests per minute per IP under /api/auth/ */
  auth: number;
  /** demo logins per minute per IP */
  demo: number;
  /** the window the counts above are per, in milliseconds (default one minute) */
  windowMs?: number;
  /** key prefix of the shared counters */
  namespace?: string;
}

/** argon2id cost; OWASP's password storage cheat sheet: m=19 MiB, t=2, p=1 */
export interface PasswordHashingConfig {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export interface LockoutPolicy {
  /** failures counted in this window */
  windowMs: number;
  /** failures beyond this many are answered more slowly */
  slowAfter: number;
  /** delay of the first slowed answer, doubling with each failure up to maxDelayMs */
  baseDelayMs: number;
  maxDelayMs: number;
  /** at this many failures the key is locked for lockMs (42901 with Retry-After) */
  lockAfter: number;
  lockMs: number;
}

export interface BruteForceConfig {
  username: LockoutPolicy;
  ip: LockoutPolicy;
}

export const DEFAULT_PASSWORD_HASHING: PasswordHashingConfig = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const DEFAULT_BRUTE_FORCE: BruteForceConfig = {
  username: {
    windowMs: 15 * 60_000,
    slowAfter: 3,
    baseDelayMs: 250,
    maxDelayMs: 4000,
    lockAfter: 10,
    lockMs: 15 * 60_000,
  },
  ip: { windowMs: 15 * 60_000, slowAfter: 20, baseDelayMs: 250, maxDelayMs: 4000, lockAfter: 100, lockMs: 15 * 60_000 },
};

export interface Config {
  version: string;
  port: number;
  host: string;
  /** PostgreSQL URL; null selects the embedded database */
  databaseUrl: string | null;
  dataDir: string;
  /** embedded database location; null keeps it in memory (tests) */
  embeddedDbDir: string | null;
  jwtSecret: string;
  jwtSecretGenerated: boolean;
  logDir: string;
  logLevel: string;
  logToStdout: boolean;
  appTimezone: string;
  demoLogin: boolean;
  wechat: { appId: string | null; secret: string | null; apiBase: string };
  adminOpenids: string[];
  redisUrl: string | null;
  corsOrigins: string[];
  rateLimit: RateLimitConfig;
  /** how long a user's role/status/deletion lookup may be cached */
  authCacheTtlMs: number;
  /** run the minute scheduler (recurring bills, demo purge) */
  scheduler: boolean;
  /** serve the web client at / */
  webClient: boolean;
  /** whether anyone may create an account with a username and password */
  registration: 'open' | 'closed';
  /** the address people open (passkeys' relying party); null: passkeys are not offered */
  publicUrl: string | null;
  /** PASSWORD_SIGN_IN: whether people may sign in (and register) with a username and password (default true) */
  passwordSignIn?: boolean;
  /** OpenID Connect sign-in (unset or incomplete: not offered) */
  oidc?: OidcConfig;
  passwordHashing?: PasswordHashingConfig;
  bruteForce?: BruteForceConfig;
  /**
   * Which proxies may set X-Forwarded-For (client address of rate limits and logs): false (none,
   * the default), a hop count, or a list of proxy addresses and CIDR ranges.
   */
  trustProxy: false | number | string[];
  timeouts: ServerTimeouts;
  /** ISO 4217 code of the currency the web client shows */
  defaultCurrency: string;
  /**
   * RATES_URL: where the scheduler fetches the day's exchange rates once a day, in the ECB daily XML
   * format (euro reference rates); null (the default) fetches nothing
   */
  ratesUrl?: string | null;
  /** on SIGTERM/SIGINT: how long requests in flight may take to finish before their connections are cut */
  shutdownGraceMs: number;
  /** GET /metrics (Prometheus); absent or neither token nor port: off */
  metrics?: MetricsConfig;

  /** DATA_DIR_LOCK_WAIT_MS: how long a start waits for the data folder's previous owner to go (0: refuse at once) */
  dataDirLockWaitMs?: number;

  /** limits under which uploaded files are read (unset: DEFAULT_UPLOAD_LIMITS) */
  uploadLimits?: UploadLimits;

  /** receipt recognition and attachments (unset: DEFAULT_RECEIPTS) */
  receipts?: ReceiptsConfig;

  /**
   * REQUIRE_ADMIN_TOTP: administrators must have a confirmed TOTP second factor; until then every
   * administrator route answers 403 (40303) and they may only set it up (default false)
   */
  requireAdminTotp?: boolean;

  /** webhook delivery (unset: DEFAULT_WEBHOOKS) */
  webhooks?: WebhooksConfig;
}

export interface WebhooksConfig {
  /**
   * WEBHOOKS_ALLOW_LOOPBACK: endpoints may be http:// and on a loopback address (127.0.0.0/8, ::1), for
   * tests and local receivers; other private, link-local and reserved addresses stay refused
   */
  allowLoopback: boolean;
  /** WEBHOOKS_TIMEOUT_MS: connecting plus the whole answer of one attempt */
  timeoutMs: number;
  /** WEBHOOKS_POLL_MS: how often the delivery worker looks for due deliveries */
  pollMs: number;
}

export const DEFAULT_WEBHOOKS: WebhooksConfig = { allowLoopback: false, timeoutMs: 10_000, pollMs: 2_000 };

function parseWebhooks(env: NodeJS.ProcessEnv): WebhooksConfig {
  const d = DEFAULT_WEBHOOKS;
  return {
    allowLoopback: parseBool('WEBHOOKS_ALLOW_LOOPBACK', env.WEBHOOKS_ALLOW_LOOPBACK, d.allowLoopback),
    // 0 is no setting here: an attempt always has a limit and the worker always a pace
    timeoutMs: parseMs('WEBHOOKS_TIMEOUT_MS', env.WEBHOOKS_TIMEOUT_MS, d.timeoutMs, 100) || d.timeoutMs,
    pollMs: parseMs('WEBHOOKS_POLL_MS', env.WEBHOOKS_POLL_MS, d.pollMs, 100) || d.pollMs,
  };
}

export interface OidcConfig {
  /** OIDC_ISSUER: the OpenID Provider's issuer identifier (its discovery document is read from it) */
  issuer: string | null;
  /** OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: this service as a confidential client of the provider */
  clientId: string | null;
  clientSecret: string | null;
  /** OIDC_BUTTON_LABEL: the sign-in button's text, e.g. the provider's name */
  buttonLabel: string;
  /**
   * OIDC_ALLOW_HTTP: accept an http:// issuer on a loopback address (127.0.0.1, ::1, localhost); for tests
   * and development only, never for a real provider
   */
  allowHttp: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** OIDC_*: all of issuer, client id and secret, or none; https unless OIDC_ALLOW_HTTP names a loopback issuer. */
export function parseOidc(env: NodeJS.ProcessEnv): OidcConfig {
  const allowHttp = parseBool('OIDC_ALLOW_HTTP', env.OIDC_ALLOW_HTTP, false);
  const issuer = parseUrl('OIDC_ISSUER', env.OIDC_ISSUER, allowHttp ? ['https:', 'http:'] : ['https:']);
  if (issuer && new URL(issuer).protocol === 'http:' && !LOOPBACK.has(new URL(issuer).hostname))
    throw new ConfigError('OIDC_ALLOW_HTTP accepts an http:// OIDC_ISSUER on a loopback address only');
  const clientId = (env.OIDC_CLIENT_ID ?? '').trim() || null;
  const clientSecret = (env.OIDC_CLIENT_SECRET ?? '').trim() || null;
  const set = [issuer, clientId, clientSecret].filter(Boolean).length;
  if (set !== 0 && set !== 3)
    throw new ConfigError('OpenID Connect needs all of OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, or none');
  const buttonLabel = (env.OIDC_BUTTON_LABEL ?? '').trim();
  if ([...buttonLabel].length > 40) throw new ConfigError('OIDC_BUTTON_LABEL must be at most 40 characters');
  return { issuer, clientId, clientSecret, buttonLabel, allowHttp };
}

export interface ReceiptsConfig {
  /** RECEIPTS_OCR: read receipts and screenshots on this server (off: attachments still work) */
  ocr: boolean;
  /** RECEIPTS_OCR_QUEUE: recognitions that may wait beyond the one running */
  queue: number;
  /** ATTACHMENT_QUOTA_MB: the attachments one person may store, in bytes */
  quotaBytes: number;
}

export const DEFAULT_RECEIPTS: ReceiptsConfig = { ocr: true, queue: 4, quotaBytes: 500 * 1024 * 1024 };

function parseReceipts(env: NodeJS.ProcessEnv): ReceiptsConfig {
  const d = DEFAULT_RECEIPTS;
  return {
    ocr: parseBool('RECEIPTS_OCR', env.RECEIPTS_OCR, d.ocr),
    queue: parseBounded('RECEIPTS_OCR_QUEUE', env.RECEIPTS_OCR_QUEUE, d.queue, 0, 64),
    quotaBytes:
      parseBounded('ATTACHMENT_QUOTA_MB', env.ATTACHMENT_QUOTA_MB, d.quotaBytes / 1048576, 1, 1024 * 1024) * 1048576,
  };
}

export interface ServerTimeouts {
  /** whole request (headers and body) must arrive within this; 0: no limit */
  requestMs: number;
  /** headers must arrive within this (slow-header clients are cut) */
  headersMs: number;
  /** an idle kept-alive connection is closed after this */
  keepAliveMs: number;
  /** a socket with no activity at all is closed after this; 0: no limit */
  connectionMs: number;
}

export class ConfigError extends Error {}

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

function parseBool(name: string, raw: string | undefined, dflt: boolean): boolean {
  if (raw === undefined || raw === '') return dflt;
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 3000;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535)
    throw new ConfigError(`PORT must be an integer from 0 to 65535, got "${raw}"`);
  return Number(raw);
}

function parseUrl(name: string, raw: string | undefined, protocols: string[]): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(url.protocol)) throw new ConfigError(`${name} must use ${protocols.join(' or ')}`);
  return raw.trim();
}

function parseMs(name: string, raw: string | undefined, dflt: number, min: number): number {
  if (raw === undefined || raw.trim() === '') return dflt;
  const v = raw.trim();
  if (!/^\d{1,9}$/.test(v) || (Number(v) !== 0 && Number(v) < min))
    throw new ConfigError(`${name} must be 0 or a whole number of milliseconds of at least ${min}, got "${raw}"`);
  return Number(v);
}

function isCidrOrIp(entry: string): boolean {
  const [addr, bits, ...rest] = entry.split('/');
  if (rest.length || !addr) return false;
  const family = isIP(addr);
  if (!family) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY: unset or false (trust no proxy), a hop count, or a comma list of addresses/CIDRs. */
export function parseTrustProxy(raw: string | undefined): false | number | string[] {
  const v = (raw ?? '').trim();
  if (v === '' || v.toLowerCase() === 'false' || v === '0') return false;
  if (/^\d{1,2}$/.test(v)) return Number(v);
  if (v.toLowerCase() === 'true') {
    throw new ConfigError(
      'TRUST_PROXY=true would let any client choose its own address; give the number of proxies in front of the ' +
        'service or their addresses',
    );
  }
  const entries = list(v);
  for (const e of entries) {
    if (!isCidrOrIp(e))
      throw new ConfigError(
        `TRUST_PROXY must be a hop count or a comma list of IP addresses or CIDR ranges; "${e}" is neither`,
      );
  }
  return entries;
}

export function parseTimeouts(env: NodeJS.ProcessEnv): ServerTimeouts {
  const t: ServerTimeouts = {
    requestMs: parseMs('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS, 60_000, 1000),
    headersMs: parseMs('HEADERS_TIMEOUT_MS', env.HEADERS_TIMEOUT_MS, 10_000, 1000),
    keepAliveMs: parseMs('KEEP_ALIVE_TIMEOUT_MS', env.KEEP_ALIVE_TIMEOUT_MS, 72_000, 1000),
    connectionMs: parseMs('CONNECTION_TIMEOUT_MS', env.CONNECTION_TIMEOUT_MS, 120_000, 1000),
  };
  if (t.headersMs === 0)
    throw new ConfigError(
      'HEADERS_TIMEOUT_MS must not be 0: clients sending headers slowly would hold connections forever',
    );
  if (t.requestMs !== 0 && t.headersMs > t.requestMs)
    throw new ConfigError('HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS');
  return t;
}

function parseCount(name: string, raw: string | undefined, dflt: number): number {
  if (raw === undefined || raw.trim() === '') return dflt;
  const v = raw.trim();
  if (!/^\d{1,9}$/.test(v) || Number(v) < 1)
    throw new ConfigError(`${name} must be a whole number of at least 1, got "${raw}"`);
  return Number(v);
}

/** RATE_LIMIT, RATE_LIMIT_AUTH, RATE_LIMIT_DEMO (requests per window) and RATE_LIMIT_WINDOW_MS */
export function parseRateLimits(env: NodeJS.ProcessEnv): RateLimitConfig {
  const windowMs = parseMs('RATE_LIMIT_WINDOW_MS', env.RATE_LIMIT_WINDOW_MS, 60_000, 1000);
  if (windowMs === 0) throw new ConfigError('RATE_LIMIT_WINDOW_MS must be at least 1000');
  return {
    enabled: true,
    global: parseCount('RATE_LIMIT', env.RATE_LIMIT, 600),
    auth: parseCount('RATE_LIMIT_AUTH', env.RATE_LIMIT_AUTH, 30),
    demo: parseCount('RATE_LIMIT_DEMO', env.RATE_LIMIT_DEMO, 5),
    windowMs,
  };
}

function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Reads the JWT secret from the environment, or the one generated earlier in the data folder. */
function resolveSecret(raw: string | undefined, dataDir: string): { secret: string; generated: boolean } {
  if (raw !== undefined && raw !== '') {
    if (raw.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters long');
    return { secret: raw, generated: false };
  }
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return { secret: stored, generated: true };
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url').slice(0, 64);
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return { secret, generated: true };
}

// ---- metrics ----

export interface MetricsConfig {
  /** METRICS_TOKEN: /metrics on the main port, for `Authorization: Bearer <token>` only; null: not there */
  token: string | null;
  /** METRICS_PORT: /metrics on a listener of its own (with the token only when one is set); null: none */
  port: number | null;
  /** METRICS_HOST: the address of that listener (default HOST) */
  host: string;
}

export function parseMetrics(env: NodeJS.ProcessEnv, host: string, mainPort: number): MetricsConfig {
  const token = (env.METRICS_TOKEN ?? '').trim();
  if (token && !/^[\x21-\x7e]{16,256}$/.test(token))
    throw new ConfigError('METRICS_TOKEN must be 16 to 256 visible ASCII characters without spaces');
  const rawPort = (env.METRICS_PORT ?? '').trim();
  if (rawPort && (!/^\d{1,5}$/.test(rawPort) || Number(rawPort) < 1 || Number(rawPort) > 65535))
    throw new ConfigError(`METRICS_PORT must be an integer from 1 to 65535, got "${env.METRICS_PORT}"`);
  const port = rawPort ? Number(rawPort) : null;
  if (port !== null && port === mainPort) throw new ConfigError('METRICS_PORT must differ from PORT');
  const metricsHost = (env.METRICS_HOST ?? '').trim();
  if (metricsHost && port === null) throw new ConfigError('METRICS_HOST is set without METRICS_PORT');
  return { token: token || null, port, host: metricsHost || host };
}

// ---- upload limits: every uploaded file is read under these (README, Reliability) ----

export interface UploadLimits {
  /** entries in a workbook's zip (central directory) */
  zipMaxEntries: number;
  /** sum of the declared uncompressed sizes of a zip's entries, and bytes actually inflated */
  zipMaxBytes: number;
  /** uncompressed size of any one entry */
  zipMaxEntryBytes: number;
  /** uncompressed / compressed, for an entry (or a whole zip) of more than 1 MiB uncompressed */
  zipMaxRatio: number;
  /** rows of a sheet, empty ones included */
  maxRows: number;
  /** columns of a sheet */
  maxColumns: number;
  /** characters of one cell (or one shared string) */
  maxCellChars: number;
  /** entries of a workbook's shared-string table */
  maxSharedStrings: number;
  /** characters of the shared-string table, all entries together */
  maxSharedChars: number;
  /** nesting depth of an XML part */
  xmlMaxDepth: number;
  /** size of an old binary Excel (.xls) file, read whole in memory */
  xlsMaxBytes: number;
  /** inflated bytes of a backup file being restored */
  backupMaxBytes: number;
  /** one line of a backup file (one row) */
  backupMaxLineBytes: number;
}

export const DEFAULT_UPLOAD_LIMITS: Readonly<UploadLimits> = Object.freeze({
  zipMaxEntries: 1000,
  zipMaxBytes: 100 * 1024 * 1024,
  zipMaxEntryBytes: 64 * 1024 * 1024,
  zipMaxRatio: 100,
  maxRows: 100_000,
  maxColumns: 256,
  maxCellChars: 32 * 1024,
  maxSharedStrings: 500_000,
  maxSharedChars: 20_000_000,
  xmlMaxDepth: 64,
  xlsMaxBytes: 10 * 1024 * 1024,
  backupMaxBytes: 16 * 1024 * 1024 * 1024,
  backupMaxLineBytes: 16 * 1024 * 1024,
});

function parseBounded(name: string, raw: string | undefined, dflt: number, min: number, max: number): number {
  if (raw === undefined || raw.trim() === '') return dflt;
  const v = raw.trim();
  if (!/^\d{1,15}$/.test(v) || Number(v) < min || Number(v) > max)
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return Number(v);
}

/** UPLOAD_* and BACKUP_MAX_*: the limits of uploaded files; the row limit is the contract's and stays. */
export function parseUploadLimits(env: NodeJS.ProcessEnv): UploadLimits {
  const d = DEFAULT_UPLOAD_LIMITS;
  const MiB = 1024 * 1024;
  return {
    ...d,
    zipMaxEntries: parseBounded('UPLOAD_ZIP_MAX_ENTRIES', env.UPLOAD_ZIP_MAX_ENTRIES, d.zipMaxEntries, 16, 100_000),
    zipMaxBytes: parseBounded('UPLOAD_UNZIPPED_MAX_MB', env.UPLOAD_UNZIPPED_MAX_MB, d.zipMaxBytes / MiB, 1, 1024) * MiB,
    zipMaxEntryBytes:
      parseBounded('UPLOAD_ZIP_ENTRY_MAX_MB', env.UPLOAD_ZIP_ENTRY_MAX_MB, d.zipMaxEntryBytes / MiB, 1, 1024) * MiB,
    zipMaxRatio: parseBounded('UPLOAD_ZIP_MAX_RATIO', env.UPLOAD_ZIP_MAX_RATIO, d.zipMaxRatio, 10, 10_000),
    maxColumns: parseBounded('UPLOAD_MAX_COLUMNS', env.UPLOAD_MAX_COLUMNS, d.maxColumns, 16, 16_384),
    maxCellChars: parseBounded('UPLOAD_CELL_MAX_CHARS', env.UPLOAD_CELL_MAX_CHARS, d.maxCellChars, 1024, 1_000_000),
    maxSharedStrings: parseBounded(
      'UPLOAD_SHARED_STRINGS_MAX',
      env.UPLOAD_SHARED_STRINGS_MAX,
      d.maxSharedStrings,
      1000,
      10_000_000,
    ),
    maxSharedChars: parseBounded(
      'UPLOAD_SHARED_CHARS_MAX',
      env.UPLOAD_SHARED_CHARS_MAX,
      d.maxSharedChars,
      100_000,
      500_000_000,
    ),
    xlsMaxBytes: parseBounded('UPLOAD_XLS_MAX_MB', env.UPLOAD_XLS_MAX_MB, d.xlsMaxBytes / MiB, 1, 20) * MiB,
    backupMaxBytes:
      parseBounded('BACKUP_MAX_INFLATED_MB', env.BACKUP_MAX_INFLATED_MB, d.backupMaxBytes / MiB, 1, 1024 * 1024) * MiB,
  };
}

/** The only reader of process.env. Throws ConfigError with a readable message on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const databaseUrl = parseUrl('DATABASE_URL', env.DATABASE_URL, ['postgres:', 'postgresql:']);
  const logLevel = (env.LOG_LEVEL || 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const appTimezone = env.APP_TIMEZONE || 'UTC';
  if (!isValidTimezone(appTimezone)) throw new ConfigError(`APP_TIMEZONE "${appTimezone}" is not an IANA time zone`);
  const host = env.HOST || '127.0.0.1';
  const corsOrigins = list(env.CORS_ORIGINS);
  for (const origin of corsOrigins) {
    if (!parseUrl('CORS_ORIGINS', origin, ['http:', 'https:']))
      throw new ConfigError('CORS_ORIGINS holds an empty origin');
  }
  const registration = (env.REGISTRATION || 'open').trim().toLowerCase();
  if (registration !== 'open' && registration !== 'closed')
    throw new ConfigError(`REGISTRATION must be open or closed, got "${env.REGISTRATION}"`);
  const publicUrl = parseUrl('PUBLIC_URL', env.PUBLIC_URL, ['http:', 'https:']);
  const defaultCurrency = (env.DEFAULT_CURRENCY || 'CNY').trim().toUpperCase();
  if (!currencyInfo(defaultCurrency))
    throw new ConfigError(`DEFAULT_CURRENCY "${env.DEFAULT_CURRENCY}" is not an ISO 4217 currency code`);
  const { secret, generated } = resolveSecret(env.JWT_SECRET, dataDir);
  return Object.freeze({
    version: pkg.version,
    port: parsePort(env.PORT),
    host,
    databaseUrl,
    dataDir,
    embeddedDbDir: databaseUrl ? null : path.join(dataDir, 'db'),
    jwtSecret: secret,
    jwtSecretGenerated: generated,
    logDir: path.resolve(env.LOG_DIR || path.join(dataDir, 'logs')),
    logLevel,
    logToStdout: true,
    appTimezone,
    demoLogin: parseBool('DEMO_LOGIN', env.DEMO_LOGIN, true),
    wechat: {
      appId: env.WECHAT_APPID || null,
      secret: env.WECHAT_SECRET || null,
      apiBase: parseUrl('WECHAT_API_BASE', env.WECHAT_API_BASE, ['http:', 'https:']) ?? 'https://api.weixin.qq.com',
    },
    adminOpenids: list(env.ADMIN_OPENIDS),
    redisUrl: parseUrl('REDIS_URL', env.REDIS_URL, ['redis:', 'rediss:']),
    corsOrigins,
    rateLimit: parseRateLimits(env),
    dataDirLockWaitMs: parseMs('DATA_DIR_LOCK_WAIT_MS', env.DATA_DIR_LOCK_WAIT_MS, 10_000, 100),
    authCacheTtlMs: 60_000,
    scheduler: true,
    webClient: true,
    registration,
    publicUrl: publicUrl && new URL(publicUrl).origin,
    passwordSignIn: parseBool('PASSWORD_SIGN_IN', env.PASSWORD_SIGN_IN, true),
    oidc: parseOidc(env),
    passwordHashing: DEFAULT_PASSWORD_HASHING,
    bruteForce: DEFAULT_BRUTE_FORCE,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    timeouts: parseTimeouts(env),
    defaultCurrency,
    ratesUrl: parseUrl('RATES_URL', env.RATES_URL, ['http:', 'https:']),
    shutdownGraceMs: parseMs('SHUTDOWN_GRACE_MS', env.SHUTDOWN_GRACE_MS, 25_000, 100),
    metrics: parseMetrics(env, host, parsePort(env.PORT)),
    uploadLimits: parseUploadLimits(env),
    receipts: parseReceipts(env),
    requireAdminTotp: parseBool('REQUIRE_ADMIN_TOTP', env.REQUIRE_ADMIN_TOTP, false),
    webhooks: parseWebhooks(env),
  });
}
