import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { Executor } from '../../db/client.ts';
import { isValidDate } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import type { Authenticator } from '../../plugins/auth.ts';
import type { TokenService, UserStateCache } from '../identity/index.ts';
import type { AuthUser } from '../../types.ts';
import { exportCategoryNames, exportPage, exportTags, userHasTags, type ExportRow } from './export.repo.ts';
import { csvLines, EXPORT_COLUMNS, jsonRecord, NO_TAGS, type ExportPage } from './export.format.ts';
import type { ExportParams, ExportPrepareBody, ExportPrepareResult, ExportQuery } from './export.schemas.ts';

export const EXPORT_TOKEN_TTL_S = 300;
export const EXPORT_PURPOSE = 'export';
/** rows per database query; two pages at most are held at a time */
export const EXPORT_PAGE = 2000;

const TYPES = new Set(['expense', 'income', 'transfer', 'adjustment', 'all']);
const FORMATS = new Set(['csv', 'json']);

/** Checks and completes the export parameters (40001). */
export function resolveParams(p: Partial<ExportParams>): ExportParams {
  if (!p.startDate) throw Errors.field('startDate', 'is required');
  if (!p.endDate) throw Errors.field('endDate', 'is required');
  if (!isValidDate(p.startDate)) throw Errors.field('startDate', 'must be a valid date (YYYY-MM-DD)');
  if (!isValidDate(p.endDate)) throw Errors.field('endDate', 'must be a valid date (YYYY-MM-DD)');
  // the database has no year 0: the query would fail after the response has started
  if (p.startDate < '0001-01-01') throw Errors.field('startDate', 'must be from the year 0001 on');
  if (p.startDate > p.endDate) throw Errors.field('endDate', 'must not be before startDate');
  const type = p.type ?? 'all';
  const format = p.format ?? 'csv';
  if (!TYPES.has(type)) throw Errors.field('type', 'must be expense, income, transfer, adjustment or all');
  if (!FORMATS.has(format)) throw Errors.field('format', 'must be csv or json');
  return { startDate: p.startDate, endDate: p.endDate, type, format };
}

export function fileNameOf(p: ExportParams): string {
  return `transactions-${p.startDate}-${p.endDate}.${p.format}`;
}

/** Signs the parameters into a short-lived download token. */
export async function prepareExport(
  { tokens }: { tokens: TokenService },
  userId: number,
  body: ExportPrepareBody,
): Promise<ExportPrepareResult> {
  const params = resolveParams(body);
  const token = await tokens.signPurpose(EXPORT_PURPOSE, String(userId), EXPORT_TOKEN_TTL_S, { ...params });
  const qs = new URLSearchParams({ token, ...params });
  return { token, expires_in: EXPORT_TOKEN_TTL_S, downloadUrl: `/api/export?${qs.toString()}` };
}

export interface DownloadAuth {
  user: AuthUser;
  /** the parameters a prepared token was signed with */
  params: Partial<ExportParams> | null;
}

/**
 * Who is downloading: `?token=` (a prepared export token, or an access token) or else the
 * Authorization header. Anything invalid or expired is 40101; a deleted or disabled user 40104.
 */
export interface DownloadAuthenticator {
  tokens: TokenService;
  userState: UserStateCache;
  authenticator: Authenticator;
}

export async function authorizeDownload(
  auth: DownloadAuthenticator,
  queryToken: string | undefined,
  bearer: string | null,
): Promise<DownloadAuth> {
  if (queryToken !== undefined) {
    // not a prepared export token: it may still be an access token
    const claims = await auth.tokens.verifyPurpose(queryToken, EXPORT_PURPOSE).catch(() => null);
    if (claims) {
      if (!/^[1-9]\d{0,9}$/.test(claims.sub) || Number(claims.sub) > 2147483647)
        throw Errors.unauthorized('download token invalid');
      const userId = Number(claims.sub);
      const state = await auth.userState.get(userId);
      if (!state || state.deleted || state.status === 'disabled') throw Errors.accountBlocked();
      const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
      const params = {
        startDate: str(claims.startDate),
        endDate: str(claims.endDate),
        type: str(claims.type) as ExportParams['type'] | undefined,
        format: str(claims.format) as ExportParams['format'] | undefined,
      };
      return { user: { id: userId, role: state.role }, params };
    }
    return { user: await auth.authenticator.authenticate(queryToken), params: null };
  }
  if (!bearer) throw Errors.unauthorized('access token missing');
  return { user: await auth.authenticator.authenticate(bearer), params: null };
}

/** Query parameters merged with a prepared token's, which win. */
export function downloadParams(query: ExportQuery, fromToken: Partial<ExportParams> | null): ExportParams {
  const q: Partial<ExportParams> = {
    startDate: query.startDate,
    endDate: query.endDate,
    type: query.type,
    format: query.format,
  };
  if (fromToken)
    for (const [k, v] of Object.entries(fromToken)) if (v !== undefined) (q as Record<string, unknown>)[k] = v;
  return resolveParams(q);
}

/**
 * Pages of the user's transactions with their tags. Keyset paging on (date, id): no transaction
 * or cursor is held open between pages, and memory does not depend on the number of rows. The
 * next page is requested as soon as a page has arrived (while its tags are looked up and it is
 * written out), so the database and the formatting work side by side, never more than two pages
 * in hand.
 */
export async function* exportPages(
  db: Executor,
  userId: number,
  p: ExportParams,
  pageSize = EXPORT_PAGE,
): AsyncGenerator<ExportPage> {
  const fetchPage = (after: { date: string; id: number } | null): Promise<ExportRow[]> => {
    const promise = exportPage(db, userId, p, after, pageSize);
    // a download abandoned mid-way must not leave an unhandled rejection behind
    promise.catch(() => {});
    return promise;
  };
  const withTags = await userHasTags(db, userId);
  let categories = await exportCategoryNames(db, userId);
  let pending: Promise<ExportRow[]> | null = fetchPage(null);
  while (pending) {
    const rows: ExportRow[] = await pending;
    const last = rows[rows.length - 1];
    pending = rows.length === pageSize && last ? fetchPage({ date: last.date, id: Number(last.id) }) : null;
    if (!rows.length) break;
    const tags = withTags
      ? await exportTags(
          db,
          userId,
          rows.map((r) => Number(r.id)),
        )
      : new Map<number, string[]>();
    // a category created while the download runs
    if (rows.some((r) => r.category_id !== null && !categories.has(Number(r.category_id))))
      categories = await exportCategoryNames(db, userId);
    yield { rows, tags, categories };
  }
}

async function* csvChunks(pages: AsyncGenerator<ExportPage>): AsyncGenerator<string> {
  yield '\ufeff' + stringify([EXPORT_COLUMNS as unknown as string[]]);
  for await (const page of pages) yield csvLines(page);
}

async function* jsonChunks(pages: AsyncGenerator<ExportPage>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const { rows, tags, categories } of pages) {
    let out = '';
    for (const r of rows) {
      out +=
        (first ? '\n' : ',\n') +
        JSON.stringify(
          jsonRecord(
            r,
            tags.get(Number(r.id)) ?? NO_TAGS,
            r.category_id === null ? '' : (categories.get(Number(r.category_id)) ?? ''),
          ),
        );
      first = false;
    }
    yield out;
  }
  yield first ? ']\n' : '\n]\n';
}

/** The file as a stream that pulls a page from the database only when the client has taken the previous one. */
export function exportStream(db: Executor, userId: number, p: ExportParams): Readable {
  const pages = exportPages(db, userId, p);
  return Readable.from(p.format === 'csv' ? csvChunks(pages) : jsonChunks(pages), {
    objectMode: false,
    highWaterMark: 64 * 1024,
  });
}
