import { createHash } from 'node:crypto';
import type { Executor } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { todayIn } from '../../lib/dates.ts';
import { Errors } from '../../lib/errors.ts';
import type { ServiceDeps } from '../service.ts';
import * as books from '../books/index.ts';
import { requireCategory, userTimezone } from '../books/index.ts';
import { currencyInfo, requireCurrency, type CurrencyInfo } from '../../lib/currency.ts';
import { cleanText } from '../../lib/text.ts';
import type { PatchBody, PresetCreateBody, PresetUpdateBody, RuleCreateBody, RuleUpdateBody } from './import.schemas.ts';
import { headerCells } from './bill.formats.ts';
import { headerKey } from './bill.text.ts';
import { toMajor } from '../../lib/money.ts';
import { recentHistory } from '../categories/index.ts';
import { noteScorer, SUGGEST_WINDOW, type HistoryItem } from '../categories/index.ts';
import { duplicateCounter } from './import.duplicates.ts';
import { lockUserImports, type DupKey } from './import.repo.ts';
import * as repo from './bills.repo.ts';
import type { ColumnMapping, PresetRef } from './bill.formats.ts';
import { cardTail, refundOriginIds, typeIcon } from './bill.meaning.ts';
import { readBill } from './bill.parse.ts';
import { categoryRefused, MAX_CATEGORIES, type SeedRow } from './import.rows.ts';
import { ruleMatcher, type Rule } from './bill.rules.ts';

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
export const PREVIEW_ROWS = 1000;
export const MAX_RULES = 200;
export const MAX_PRESETS = 50;
const BATCH = 2000;
/** a bill of this many rows refreshes the statistics of the session rows */
const ANALYZE_ROWS = 2000;
/** category choices remembered while a bill is read */
const CHOICE_CACHE = 5000;
const OTHER_NAMES = ['其他', '其它', 'Other', 'Others', '其他支出', '其他收入'];

type Deps = ServiceDeps<never, 'appTimezone' | 'uploadLimits'>;

export interface PreviewRowOut {
  row: number;
  date: string;
  kind: 'expense' | 'income' | 'transfer';
  amount: number;
  counterparty: string;
  note: string;
  external_id: string | null;
  method: string;
  account_id: number | null;
  to_method: string | null;
  to_account_id: number | null;
  category_id: number | null;
  category_name: string | null;
  tags: string[];
  decision: 'import' | 'duplicate' | 'skip' | 'transfer';
  reason: string | null;
  refund: boolean;
  refund_of_row: number | null;
  refund_of: number | null;
}

/**
 * The currency a bill's amounts are in: WeChat Pay and Alipay bills are in yuan; our own export and
 * a bank's file name no currency, so their amounts are in their account's currency.
 */
function billCurrency(format: string): CurrencyInfo | null {
  return format === 'wechat' || format === 'alipay' ? requireCurrency('CNY') : null;
}

/**
 * Writes the session's rows to import as transactions, in one statement of the books writer
 * (insertSelected), straight from the session's table: nothing of the bill passes through memory.
 * Each amount is read in its bill's currency and booked in its account's (a 28.00 yuan payment from
 * a yen account is so many whole yen at the yen's rate, and 28.00 yuan in a yuan base), converted
 * once with the integer rules of the books. Refunds of a purchase of the same file point to it. A
 * row that cannot be booked (a rate missing, more decimals than the account's currency has) refuses
 * the commit with its reason (42203), and nothing is written.
 */
async function writeRows(tx: Executor, userId: number, sessionId: number, format: string, source: string | null): Promise<{ imported: number; transfers: number; refunds: number }> {
  const base = await books.baseCurrencyOf(tx, userId);
  const given = billCurrency(format);
  const codes = new Set([base.code, ...(given ? [given.code] : []), ...(await repo.userAccounts(tx, userId)).map((a) => a.currency)]);
  const currencies = [...codes].map((c) => currencyInfo(c)).filter((c): c is CurrencyInfo => c !== undefined);
  // the tags the rows name, created when missing
  await repo.tagsOfRows(tx, userId, sessionId);
  const out = await books.insertSelected(tx, userId, repo.rowsToWriteSql(userId, sessionId, source, given?.code ?? null), currencies);
  if (out.errors.length) throw Errors.importRejected(out.errors);
  return { imported: out.written, transfers: out.transfers, refunds: out.refunds };
}

export function toRowOut(r: repo.PreviewRow): PreviewRowOut {
  return {
    row: r.row,
    date: r.date,
    kind: r.kind,
    amount: toMajor(r.amountCents),
    counterparty: r.counterparty,
    note: r.note,
    external_id: r.externalId,
    method: r.method,
    account_id: r.accountId,
    to_method: r.toMethod,
    to_account_id: r.toAccountId,
    category_id: r.categoryId,
    category_name: r.categoryName,
    tags: r.tags,
    decision: r.decision,
    reason: r.reason,
    refund: r.refund,
    refund_of_row: r.refundOfRow,
    refund_of: r.refundOfId,
  };
}

/** A payment seen under an external id: the digest of its signature, the id it was stored under, whether it was skipped. */
interface SeenPayment {
  sig: number;
  id: string;
  skipped: boolean;
}

/**
 * A 53-bit digest of a payment's signature (cyrb53), to tell payments under one id apart: a number per
 * id seen instead of a string, and no cryptographic hash per row.
 */
function digest(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Several payments under one id (anonymised exports, a payment and its fee): the later ones get an id of their own, stable across uploads. */
function ownId(id: string, signature: string): string {
  return `${id.slice(0, 100)}~${createHash('sha256').update(signature).digest('hex').slice(0, 12)}`;
}

function summaryOut(s: repo.Summary) {
  return {
    total: s.total,
    import: s.import,
    duplicate: s.duplicate,
    skip: s.skip,
    transfer: s.transfer,
    expense: toMajor(s.expense_cents),
    income: toMajor(s.income_cents),
    methods: s.methods,
  };
}

export function toRule(r: repo.RuleRow) {
  return { id: r.id, position: r.position, field: r.field, match: r.match, value: r.value, kind: r.kind, category_id: r.categoryId, created_at: r.createdAt.toISOString() };
}

export function toPreset(p: repo.PresetRow) {
  return { id: p.id, name: p.name, header: p.header, mapping: p.mapping as unknown as ColumnMapping, account_id: p.accountId, created_at: p.createdAt.toISOString() };
}

/** Finds the account a payment method names: remembered mapping, an account of that name, then the same card tail. */
function accountResolver(maps: Map<string, number>, accounts: repo.AccountRef[]) {
  const live = accounts.filter((a) => !a.archived);
  const liveIds = new Set(live.map((a) => a.id));
  const byName = new Map(live.map((a) => [a.name.normalize('NFKC').replace(/\s+/g, ''), a.id]));
  const byTail = new Map<string, number>();
  for (const [method, id] of maps) {
    const t = cardTail(method);
    if (t && liveIds.has(id) && !byTail.has(t)) byTail.set(t, id);
  }
  for (const a of live) {
    const t = cardTail(a.name.normalize('NFKC'));
    if (t && !byTail.has(t)) byTail.set(t, a.id);
  }
  return (method: string | null): number | null => {
    if (!method) return null;
    const m = maps.get(method);
    if (m !== undefined && liveIds.has(m)) return m;
    const n = byName.get(method);
    if (n !== undefined) return n;
    const t = cardTail(method);
    return t ? (byTail.get(t) ?? null) : null;
  };
}

/** A mapping names columns of its header: a date, and an amount with its sign or debit and credit columns. */
function checkMapping(m: ColumnMapping, header: string[]) {
  const names = new Set(header.map(headerKey));
  const need = (v: string | null | undefined, field: string) => {
    if (v && !names.has(headerKey(v))) throw Errors.field(`mapping.${field}`, 'must name a column of the header');
  };
  need(m.date, 'date');
  if (m.amount) {
    need(m.amount, 'amount');
    need(m.direction, 'direction');
    if (!m.sign && !m.direction) throw Errors.field('mapping.sign', 'is required with an amount column (or a direction column)');
  } else if (m.debit || m.credit) {
    if (!m.debit || !m.credit) throw Errors.field('mapping', 'needs both debit and credit columns');
    need(m.debit, 'debit');
    need(m.credit, 'credit');
  } else throw Errors.field('mapping', 'needs an amount column, or debit and credit columns');
  need(m.description, 'description');
  need(m.counterparty, 'counterparty');
  need(m.external_id, 'external_id');
  need(m.currency, 'currency');
  if (m.has_header === false && !header.every((h, i) => h.trim() === String(i + 1))) throw Errors.field('header', 'of a file without a header row must be the column numbers "1", "2"...');
}

export function createBillImportService({ db, clock, config }: Deps) {
  async function checkPresetAccount(userId: number, accountId: number | null): Promise<number | null> {
    if (accountId === null) return null;
    const own = await repo.userAccounts(db, userId);
    if (!own.some((a) => a.id === accountId && !a.archived)) throw Errors.field('account_id', 'must be one of your accounts');
    return accountId;
  }

  /** The category a row proposes: the user's rules first, then the suggestion from their history. */
  async function categoryChooser(ex: Executor, userId: number) {
    const [cats, rules] = await Promise.all([repo.userCategories(ex, userId), repo.listRules(ex, userId)]);
    const today = todayIn(await userTimezone(ex, userId, config.appTimezone), clock.now());
    const [hExpense, hIncome] = await Promise.all([
      recentHistory(ex, userId, 'expense', today, SUGGEST_WINDOW),
      recentHistory(ex, userId, 'income', today, SUGGEST_WINDOW),
    ]);
    const catById = new Map(cats.map((c) => [c.id, c]));
    const history: Record<string, HistoryItem[]> = { expense: hExpense.filter((h) => catById.get(h.category_id)?.kind === 'expense'), income: hIncome.filter((h) => catById.get(h.category_id)?.kind === 'income') };
    const scorers = { expense: noteScorer(history.expense!), income: noteScorer(history.income!) };
    const fallback: Record<string, number | null> = {};
    for (const kind of ['expense', 'income']) {
      const own = cats.filter((c) => c.kind === kind);
      fallback[kind] = (own.find((c) => OTHER_NAMES.includes(c.name)) ?? own[own.length - 1])?.id ?? null;
    }
    const byName = new Map(cats.map((c) => [`${c.kind}\u0000${c.name}`, c.id]));
    const match = ruleMatcher(
      rules.filter((r) => catById.get(r.categoryId)?.kind === (r.kind ?? catById.get(r.categoryId)?.kind)).map((r) => ({ ...r, kind: r.kind ?? null }) as Rule),
    );
    const cache = new Map<string, number | null>();
    return {
      byName: (kind: string, name: string) => byName.get(`${kind}\u0000${name}`) ?? null,
      choose(row: { kind: string; counterparty: string; note: string; method: string; type?: string }): number | null {
        if (row.kind !== 'expense' && row.kind !== 'income') return null;
        const rule = match(row);
        if (rule && catById.get(rule.categoryId)?.kind === row.kind) return rule.categoryId;
        const key = `${row.kind}\u0000${row.type ?? ''}\u0000${row.note}`;
        const hit = cache.get(key);
        if (hit !== undefined) return hit;
        const best = scorers[row.kind](row.note)[0];
        // the bill's own classification (Alipay 交易分类, WeChat 交易类型) before falling back to Other
        const icon = row.type ? typeIcon(row.type, row.kind) : null;
        const byType = icon ? (cats.find((c) => c.kind === row.kind && c.icon === icon)?.id ?? null) : null;
        const id = best && best.score >= 0.3 ? best.category_id : (byType ?? fallback[row.kind]!);
        // a bounded cache: a bill of many different notes does not keep them all
        if (cache.size >= CHOICE_CACHE) cache.clear();
        cache.set(key, id);
        return id;
      },
    };
  }

  async function presetRefs(ex: Executor, userId: number): Promise<(PresetRef & { accountId: number | null })[]> {
    return (await repo.listPresets(ex, userId)).map((p) => ({ id: p.id, header: p.header, mapping: p.mapping as unknown as ColumnMapping, accountId: p.accountId }));
  }

  async function previewOut(userId: number, s: repo.SessionRow, page = 1, pageSize = PREVIEW_ROWS, decision?: string) {
    const [{ rows, total }, sum] = await Promise.all([repo.listRows(db, s.id, { offset: (page - 1) * pageSize, limit: pageSize, decision }), repo.summary(db, s.id)]);
    return {
      id: s.id,
      format: s.format,
      source: s.source,
      container: s.container,
      encoding: s.encoding,
      preset_id: s.presetId,
      file_name: s.fileName,
      status: s.status,
      expires_at: s.expiresAt.toISOString(),
      rows: rows.map(toRowOut),
      total,
      summary: summaryOut(sum),
      ignored: s.status === 'ready' ? ((s.result?.ignored as { row: number; reason: string; text: string }[] | undefined) ?? []) : [],
    };
  }

  async function requireSession(userId: number, id: number) {
    const s = await repo.findOwnSession(db, userId, id, clock.now());
    if (!s || s.status === 'reading') throw Errors.notFound('import preview');
    return s;
  }

  return {
    /** Reads a bill into a preview session; rows are stored as the file streams past. */
    async preview(userId: number, bytes: Uint8Array, fileName: string, presetId: number | null, signal?: AbortSignal) {
      const presets = await presetRefs(db, userId);
      if (presetId !== null && !presets.some((p) => p.id === presetId)) throw Errors.field('preset_id', 'must be one of your column mappings');
      const [accounts, maps, chooser] = await Promise.all([repo.userAccounts(db, userId), repo.accountMaps(db, userId), categoryChooser(db, userId)]);
      const defaultAccount = accounts.find((a) => a.isDefault && !a.archived)?.id ?? accounts.find((a) => !a.archived)?.id ?? null;
      const resolve = accountResolver(maps, accounts);
      const now = clock.now();
      const session = await repo.insertSession(db, {
        userId,
        format: 'wechat',
        source: '',
        container: 'csv',
        fileName: fileName.slice(0, 200),
        status: 'reading',
        expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
      });
      /** the payments seen under each id: signature (time, amount, counterparty) -> the id it was stored under, and whether it was skipped */
      const seen = new Map<string, SeenPayment | SeenPayment[]>();
      /** rows without an id: as many as the books already hold are duplicates */
      const duplicates = duplicateCounter(db, userId);
      const liveAccounts = accounts.filter((a) => !a.archived);
      const currencyOf = new Map(liveAccounts.map((a) => [a.id, a.currency]));
      let presetAccount: number | null = null;
      let storing: Promise<void> = Promise.resolve();
      const sink = repo.rowSink(db, session.id);
      /**
       * A batch's rows decided, then stored (one batch stored while the next is decided). Rows whose
       * id the books already hold are marked by one statement once the whole bill is stored, not
       * looked up batch by batch: a batch's rows go to the database as soon as they are read, and
       * are garbage before the next batch (a bill's rows held across a query each are what made a
       * large bill's preview grow the heap by hundreds of megabytes).
       */
      const finish = async (seeds: SeedRow[], storedIds: (string | null)[], inFileDup: boolean[]) => {
        const rows: repo.PreviewRowInsert[] = [];
        const counted: { key: DupKey; idx: number }[] = [];
        for (const [i, s] of seeds.entries()) {
          let decision = s.decision;
          let reason: string | null = s.reason;
          let accountId: number | null;
          let toAccountId: number | null = null;
          let categoryId: number | null = null;
          const externalId = storedIds[i]!;
          if (s.kind === 'transfer') {
            accountId = resolve(s.method);
            toAccountId = resolve(s.toMethod);
            if (decision === 'transfer' && (accountId === null || toAccountId === null || accountId === toAccountId)) {
              decision = 'skip';
              reason = 'no_account';
            }
          } else {
            accountId = resolve(s.method) ?? presetAccount ?? defaultAccount;
            categoryId = s.categoryName !== null ? chooser.byName(s.kind, s.categoryName) : chooser.choose(s);
            // a row in a currency of its own is booked in an account of that currency, or waits for one
            if (s.currency && (accountId === null || currencyOf.get(accountId) !== s.currency)) {
              const other = liveAccounts.find((a) => a.currency === s.currency);
              if (other) accountId = other.id;
              else if (decision !== 'skip') {
                decision = 'skip';
                reason = 'currency';
              }
            }
          }
          if (externalId !== null && decision !== 'skip' && inFileDup[i]) {
            decision = 'duplicate';
            reason = 'duplicate_in_file';
          }
          const row: repo.PreviewRowInsert = {
            sessionId: session.id,
            row: s.row,
            date: s.date,
            kind: s.kind,
            amountCents: s.cents,
            counterparty: s.counterparty,
            note: s.currency && reason === 'currency' ? `${s.note} (${s.currency})`.trim() : s.note,
            externalId,
            method: s.method,
            toMethod: s.toMethod,
            accountId,
            toAccountId,
            categoryId,
            categoryName: categoryId === null ? s.categoryName : null,
            tags: s.tags,
            groupId: s.groupId,
            originalCreatedAt: s.createdAt ? new Date(s.createdAt) : null,
            decision,
            reason,
            refund: s.refund,
            existingId: null,
            type: s.type,
          };
          if (s.externalId === null && decision === 'import' && categoryId !== null && accountId !== null) {
            counted.push({ key: { accountId, date: s.date, kind: s.kind, cents: s.cents, categoryId, note: s.note }, idx: rows.length });
          }
          rows.push(row);
        }
        const duplicate = await duplicates(counted.map((c) => c.key));
        counted.forEach(({ idx }, i) => {
          if (duplicate[i]) {
            rows[idx]!.decision = 'duplicate';
            rows[idx]!.reason = 'duplicate';
          }
        });
        // a batch is stored while the next one is read (the database works on its own core): one in flight at most
        await storing;
        storing = sink.write(rows);
        storing.catch(() => {});
      };
      let working: Promise<void> = Promise.resolve();
      try {
        const outcome = await readBill(bytes, {
          presets,
          presetId,
          batchSize: BATCH,
          limits: config.uploadLimits,
          signal,
          onDetected: (d) => {
            presetAccount = presets.find((p) => p.id === d.presetId)?.accountId ?? null;
          },
          onRows: async (seeds: SeedRow[]) => {
            // the id each row is stored under, and whether it is the same payment again
            const storedIds: (string | null)[] = [];
            const inFileDup: boolean[] = [];
            for (const s of seeds) {
              if (s.externalId === null) {
                storedIds.push(null);
                inFileDup.push(false);
                continue;
              }
              const signature = `${s.date} ${s.time}\u0000${s.kind}\u0000${s.cents}\u0000${s.counterparty}\u0000${s.note}`;
              // the payments under one id, kept small: one entry (the usual case) or a list, signatures as digests
              const sig = digest(signature);
              const held = seen.get(s.externalId);
              const skipped = s.decision === 'skip';
              if (held === undefined) {
                // the usual case, an id not seen before: stored as it is, as a copy of its own (a slice of the line it was read from would keep the whole line alive)
                const copy = Buffer.from(s.externalId).toString();
                seen.set(copy, { sig, id: copy, skipped });
                storedIds.push(copy);
                inFileDup.push(false);
                continue;
              }
              const under = Array.isArray(held) ? held : [held];
              const same = under.find((e) => e.sig === sig);
              if (same && !same.skipped && !skipped) {
                storedIds.push(same.id);
                inFileDup.push(true);
                continue;
              }
              const taken = new Set(under.map((v) => v.id));
              let id = ownId(s.externalId, signature);
              for (let n = 2; taken.has(id); n++) id = ownId(s.externalId, `${signature}\u0000${n}`);
              if (same) {
                if (same.skipped) {
                  same.id = id;
                  same.skipped = skipped;
                }
              } else seen.set(s.externalId, [...under, { sig, id, skipped }]);
              storedIds.push(id);
              inFileDup.push(false);
            }
            await working;
            working = finish(seeds, storedIds, inFileDup);
            working.catch(() => {});
          },
        });
        await working;
        await storing;
        if (outcome.errorCount > 0) throw Errors.importRejected(outcome.errors);
        await sink.end();
        const source = outcome.detected.source;
        // the payments the books already hold under the same source and id: duplicates (before the refunds, which leave them be)
        await repo.markNewDuplicates(db, userId, session.id, source);
        if (outcome.rows >= ANALYZE_ROWS) await repo.analyzeRows(db);
        // refunds: with their purchase in the file, or in the books
        await repo.linkRefunds(db, session.id, [...outcome.refundLinks]);
        await repo.skipRows(db, session.id, outcome.refundsOfSkipped, 'refund_of_skipped');
        for (const r of outcome.unpairedRefunds) {
          const o = await repo.findOriginal(db, userId, source, { ids: refundOriginIds(r.externalId), counterparty: r.counterparty, date: r.date, cents: r.cents });
          if (o) await repo.linkRefundToExisting(db, session.id, r.row, o);
          // neither in the file nor in the books: not silently income, the person decides
          else await repo.skipRows(db, session.id, [r.row], 'refund_unpaired', ['import']);
        }
        await repo.updateSession(db, session.id, {
          format: outcome.detected.format,
          source,
          container: outcome.detected.container,
          encoding: outcome.detected.encoding,
          presetId: outcome.detected.presetId,
          rowCount: outcome.rows,
          status: 'ready',
          result: { ignored: outcome.ignored },
        });
      } catch (err) {
        await working.catch(() => {});
        await storing.catch(() => {});
        await sink.abort();
        await repo.deleteSession(db, session.id);
        throw err;
      }
      const s = await requireSession(userId, session.id);
      return previewOut(userId, s);
    },

    /** Imports the rows as they stand, all or nothing. */
    async commit(userId: number, id: number) {
      await requireSession(userId, id);
      return db.transaction(async (tx) => {
        const s = await repo.lockOwnSession(tx, userId, id);
        if (!s) throw Errors.notFound('import preview');
        if (s.status === 'committed') throw Errors.conflict('this import was already committed');
        await lockUserImports(tx, userId);
        const source = s.format === 'ledger' ? null : s.source;
        if (source) await repo.markNewDuplicates(tx, userId, s.id, source);
        await repo.markInFileDuplicates(tx, s.id);
        const cats = await repo.userCategories(tx, userId);
        const refused = await repo.createNamedCategories(tx, userId, s.id, MAX_CATEGORIES - cats.length);
        const errors = [
          ...refused.map((r) => categoryRefused(r.row, r.name)),
          ...(await repo.invalidRows(tx, userId, s.id)),
        ].sort((a, b) => a.row - b.row);
        if (errors.length) throw Errors.importRejected(errors.slice(0, 1000));
        const total = await repo.countRows(tx, s.id);
        const written = await writeRows(tx, userId, s.id, s.format, source).catch((err: unknown) => {
          // another import of the same payments got there first
          if (isUniqueViolation(err)) throw Errors.conflict('some of these payments reached your books meanwhile: open the bill again');
          throw err;
        });
        await repo.rememberMethods(tx, userId, s.id);
        const result = { imported: written.imported, skipped: total - written.imported, transfers: written.transfers, refunds: written.refunds };
        await repo.deleteRows(tx, s.id);
        await repo.updateSession(tx, s.id, { status: 'committed', result });
        return result;
      });
    },

    async get(userId: number, id: number, q: { page?: number; pageSize?: number; decision?: string }) {
      const s = await requireSession(userId, id);
      return previewOut(userId, s, q.page ?? 1, q.pageSize ?? 100, q.decision);
    },

    async discard(userId: number, id: number) {
      const s = await requireSession(userId, id);
      await repo.deleteSession(db, s.id);
    },

    /** Row-by-row and bulk edits of a preview, in one transaction; answers how many rows changed. */
    async patch(userId: number, id: number, body: PatchBody) {
      const s = await requireSession(userId, id);
      if (s.status === 'committed') throw Errors.conflict('this import was already committed');
      const edits = body.rows ?? [];
      const bulk = body.bulk;
      if (!edits.length && !bulk) throw Errors.validation('send rows or bulk');
      const [accounts, cats] = await Promise.all([repo.userAccounts(db, userId), repo.userCategories(db, userId)]);
      const liveAccounts = new Set(accounts.filter((a) => !a.archived).map((a) => a.id));
      const catKind = new Map(cats.map((c) => [c.id, c.kind]));
      const checkAccount = (v: number | undefined, field: string) => {
        if (v !== undefined && !liveAccounts.has(v)) throw Errors.field(field, 'must be one of your accounts');
      };
      const checkCategory = (v: number | undefined, field: string) => {
        if (v !== undefined && !catKind.has(v)) throw Errors.field(field, 'must be one of your categories');
      };
      edits.forEach((e, i) => {
        checkAccount(e.account_id, `rows.${i}.account_id`);
        checkAccount(e.to_account_id, `rows.${i}.to_account_id`);
        checkCategory(e.category_id, `rows.${i}.category_id`);
      });
      if (bulk) {
        checkAccount(bulk.set.account_id, 'bulk.set.account_id');
        checkCategory(bulk.set.category_id, 'bulk.set.category_id');
        if (bulk.rows === undefined && bulk.method === undefined && bulk.counterparty === undefined && bulk.decision === undefined) {
          throw Errors.field('bulk', 'must select rows: rows, method, counterparty or decision');
        }
      }
      const chooser = await categoryChooser(db, userId);
      let updated = 0;
      await db.transaction(async (tx) => {
        if (edits.length) {
          const current = new Map((await repo.rowsByNumber(tx, s.id, edits.map((e) => e.row))).map((r) => [r.row, r]));
          for (const [i, e] of edits.entries()) {
            const r = current.get(e.row);
            if (!r) throw Errors.field(`rows.${i}.row`, 'is not a row of this preview');
            const kind = e.kind ?? r.kind;
            let decision = e.decision ?? (e.kind ? (e.kind === 'transfer' ? 'transfer' : 'import') : undefined);
            if (decision === 'transfer' && kind !== 'transfer') throw Errors.field(`rows.${i}.decision`, 'transfer needs kind transfer');
            if (decision === 'import' && kind === 'transfer') throw Errors.field(`rows.${i}.decision`, 'a transfer row is imported with decision transfer');
            const wasDuplicate = r.decision === 'duplicate' && (r.reason === 'duplicate' || r.reason === 'duplicate_in_file');
            if (e.force && decision === undefined) decision = kind === 'transfer' ? 'transfer' : 'import';
            if ((decision === 'import' || decision === 'transfer') && wasDuplicate && r.externalId !== null && !e.force) {
              throw Errors.rule(`row ${e.row} looks already in your books (${r.externalId}): send force true to import it anyway`);
            }
            const forced = (decision === 'import' || decision === 'transfer') && wasDuplicate && e.force === true;
            if (e.category_id !== undefined && catKind.get(e.category_id) !== kind) throw Errors.field(`rows.${i}.category_id`, `must be a category of kind ${kind}`);
            let categoryId = e.category_id;
            if (categoryId === undefined && e.kind && e.kind !== r.kind) categoryId = chooser.choose({ kind, counterparty: r.counterparty ?? '', note: e.note ?? r.note ?? '', method: r.method ?? '' }) ?? undefined;
            if (decision === undefined && r.decision === 'skip' && r.reason === 'no_account' && (e.account_id !== undefined || e.to_account_id !== undefined)) decision = 'transfer';
            await repo.updateRow(tx, s.id, e.row, {
              kind,
              decision,
              reason: forced ? 'forced' : decision !== undefined ? (decision === 'skip' ? 'user' : null) : undefined,
              // a forced row carries no id: the one it resembles keeps it, and a later upload of the bill still finds that one
              externalId: forced ? null : undefined,
              existingId: forced ? null : undefined,
              accountId: e.account_id,
              toAccountId: e.to_account_id,
              categoryId: kind === 'transfer' ? null : categoryId,
              tags: e.tags?.map((t) => t.trim()).filter((t) => t !== ''),
              note: e.note?.trim(),
            });
            updated++;
          }
        }
        if (bulk) {
          updated += await repo.bulkUpdate(tx, s.id, {
            rows: bulk.rows,
            method: bulk.method,
            counterparty: bulk.counterparty,
            decision: bulk.decision,
            set: {
              decision: bulk.set.decision,
              accountId: bulk.set.account_id,
              categoryId: bulk.set.category_id,
              categoryKind: bulk.set.category_id !== undefined ? catKind.get(bulk.set.category_id) : undefined,
              tags: bulk.set.tags?.map((t) => t.trim()).filter((t) => t !== ''),
            },
          });
          // a payment method mapped to an account is remembered for the next bills
          if (bulk.method && bulk.set.account_id !== undefined) await repo.saveAccountMaps(tx, userId, [{ method: bulk.method, accountId: bulk.set.account_id }]);
        }
        // a refund follows its purchase's category and account
        await repo.followPurchases(tx, s.id);
      });
      return { updated, summary: summaryOut(await repo.summary(db, s.id)) };
    },

    // ---- rules ----

    async listRules(userId: number) {
      return { list: (await repo.listRules(db, userId)).map(toRule) };
    },

    async createRule(userId: number, b: RuleCreateBody) {
      const cat = await requireCategory(db, userId, b.category_id);
      if (b.kind && b.kind !== cat.kind) throw Errors.field('category_id', `must be a category of kind ${b.kind}`);
      return db.transaction(async (tx) => {
        const rules = await repo.listRules(tx, userId);
        if (rules.length >= MAX_RULES) throw Errors.rule(`at most ${MAX_RULES} import rules`);
        const at = Math.min(b.position ?? rules.length + 1, rules.length + 1);
        await repo.shiftRules(tx, userId, at);
        const row = await repo.insertRule(tx, { userId, position: at, field: b.field, match: b.match ?? 'contains', value: cleanText(b.value, 'value', 1, 100), kind: b.kind ?? null, categoryId: cat.id });
        return toRule(row);
      });
    },

    async updateRule(userId: number, id: number, b: RuleUpdateBody) {
      const rule = await repo.findOwnRule(db, userId, id);
      if (!rule) throw Errors.notFound('import rule');
      const categoryId = b.category_id ?? rule.categoryId;
      const cat = await requireCategory(db, userId, categoryId);
      const kind = b.kind === undefined ? rule.kind : b.kind;
      if (kind && kind !== cat.kind) throw Errors.field('category_id', `must be a category of kind ${kind}`);
      const row = await repo.updateRule(db, userId, id, {
        field: b.field,
        match: b.match,
        value: b.value === undefined ? undefined : cleanText(b.value, 'value', 1, 100),
        kind,
        categoryId,
      });
      return toRule(row!);
    },

    async deleteRule(userId: number, id: number) {
      if (!(await repo.deleteRule(db, userId, id))) throw Errors.notFound('import rule');
    },

    async orderRules(userId: number, ids: number[]) {
      return db.transaction(async (tx) => {
        const rules = await repo.listRules(tx, userId);
        const own = new Set(rules.map((r) => r.id));
        if (new Set(ids).size !== ids.length || ids.length !== rules.length || ids.some((i) => !own.has(i))) {
          throw Errors.field('ids', 'must list each of your import rules once');
        }
        await repo.setRulePositions(tx, userId, ids);
        return { list: (await repo.listRules(tx, userId)).map(toRule) };
      });
    },

    // ---- presets ----

    async listPresets(userId: number) {
      return { list: (await repo.listPresets(db, userId)).map(toPreset) };
    },

    async createPreset(userId: number, b: PresetCreateBody) {
      const accountId = await checkPresetAccount(userId, b.account_id ?? null);
      checkMapping(b.mapping, b.header);
      const name = cleanText(b.name, 'name', 1, 30);
      const presets = await repo.listPresets(db, userId);
      if (presets.length >= MAX_PRESETS) throw Errors.rule(`at most ${MAX_PRESETS} column mappings`);
      if (presets.some((p) => p.name === name)) throw Errors.conflict('you already have a column mapping with that name');
      const row = await repo.insertPreset(db, { userId, name, header: headerCells(b.header), mapping: b.mapping as Record<string, unknown>, accountId });
      return toPreset(row);
    },

    async updatePreset(userId: number, id: number, b: PresetUpdateBody) {
      const p = await repo.findOwnPreset(db, userId, id);
      if (!p) throw Errors.notFound('column mapping');
      const header = b.header ? headerCells(b.header) : p.header;
      const mapping = (b.mapping ?? p.mapping) as unknown as ColumnMapping;
      checkMapping(mapping, header);
      const accountId = b.account_id === undefined ? p.accountId : await checkPresetAccount(userId, b.account_id);
      const name = b.name === undefined ? p.name : cleanText(b.name, 'name', 1, 30);
      if (name !== p.name && (await repo.listPresets(db, userId)).some((x) => x.name === name)) throw Errors.conflict('you already have a column mapping with that name');
      return toPreset((await repo.updatePreset(db, userId, id, { name, header, mapping: mapping as unknown as Record<string, unknown>, accountId }))!);
    },

    async deletePreset(userId: number, id: number) {
      if (!(await repo.deletePreset(db, userId, id))) throw Errors.notFound('column mapping');
    },

    async purgeExpired() {
      return repo.purgeExpired(db, clock.now());
    },
  };
}

export type BillImportService = ReturnType<typeof createBillImportService>;
