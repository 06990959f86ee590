import type { Executor } from '../../db/client.ts';
import { Errors } from '../../lib/errors.ts';
import { cleanText } from '../../lib/text.ts';
import { requireCategory } from '../books/index.ts';
import { headerCells, type ColumnMapping, type PresetRef } from './bill.formats.ts';
import { headerKey } from './bill.text.ts';
import { MAX_PRESETS, MAX_RULES, type BillDeps } from './bills.deps.ts';
import * as repo from './bills.repo.ts';
import type { PresetCreateBody, PresetUpdateBody, RuleCreateBody, RuleUpdateBody } from './import.schemas.ts';

/*
 * What a person keeps between bills: category rules (in order, the first that matches wins) and
 * column mappings of the bank files the reader does not know by itself.
 */

type Db = Pick<BillDeps, 'db'>;

export function toRule(r: repo.RuleRow) {
  return {
    id: r.id,
    position: r.position,
    field: r.field,
    match: r.match,
    value: r.value,
    kind: r.kind,
    category_id: r.categoryId,
    created_at: r.createdAt.toISOString(),
  };
}

export function toPreset(p: repo.PresetRow) {
  return {
    id: p.id,
    name: p.name,
    header: p.header,
    mapping: p.mapping as unknown as ColumnMapping,
    account_id: p.accountId,
    created_at: p.createdAt.toISOString(),
  };
}

/** The column mappings as the bill reader takes them, each with the account its rows go to. */
export async function presetRefs(ex: Executor, userId: number): Promise<(PresetRef & { accountId: number | null })[]> {
  return (await repo.listPresets(ex, userId)).map((p) => ({
    id: p.id,
    header: p.header,
    mapping: p.mapping as unknown as ColumnMapping,
    accountId: p.accountId,
  }));
}

// ---- rules ----

export async function listRules({ db }: Db, userId: number) {
  return { list: (await repo.listRules(db, userId)).map(toRule) };
}

export async function createRule({ db }: Db, userId: number, b: RuleCreateBody) {
  const cat = await requireCategory(db, userId, b.category_id);
  if (b.kind && b.kind !== cat.kind) throw Errors.field('category_id', `must be a category of kind ${b.kind}`);
  return db.transaction(async (tx) => {
    const rules = await repo.listRules(tx, userId);
    if (rules.length >= MAX_RULES) throw Errors.rule(`at most ${MAX_RULES} import rules`);
    const at = Math.min(b.position ?? rules.length + 1, rules.length + 1);
    await repo.shiftRules(tx, userId, at);
    const row = await repo.insertRule(tx, {
      userId,
      position: at,
      field: b.field,
      match: b.match ?? 'contains',
      value: cleanText(b.value, 'value', 1, 100),
      kind: b.kind ?? null,
      categoryId: cat.id,
    });
    return toRule(row);
  });
}

export async function updateRule({ db }: Db, userId: number, id: number, b: RuleUpdateBody) {
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
}

export async function deleteRule({ db }: Db, userId: number, id: number) {
  if (!(await repo.deleteRule(db, userId, id))) throw Errors.notFound('import rule');
}

export async function orderRules({ db }: Db, userId: number, ids: number[]) {
  return db.transaction(async (tx) => {
    const rules = await repo.listRules(tx, userId);
    const own = new Set(rules.map((r) => r.id));
    if (new Set(ids).size !== ids.length || ids.length !== rules.length || ids.some((i) => !own.has(i))) {
      throw Errors.field('ids', 'must list each of your import rules once');
    }
    await repo.setRulePositions(tx, userId, ids);
    return { list: (await repo.listRules(tx, userId)).map(toRule) };
  });
}

// ---- column mappings ----

async function checkPresetAccount({ db }: Db, userId: number, accountId: number | null): Promise<number | null> {
  if (accountId === null) return null;
  const own = await repo.userAccounts(db, userId);
  if (!own.some((a) => a.id === accountId && !a.archived))
    throw Errors.field('account_id', 'must be one of your accounts');
  return accountId;
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
    if (!m.sign && !m.direction)
      throw Errors.field('mapping.sign', 'is required with an amount column (or a direction column)');
  } else if (m.debit || m.credit) {
    if (!m.debit || !m.credit) throw Errors.field('mapping', 'needs both debit and credit columns');
    need(m.debit, 'debit');
    need(m.credit, 'credit');
  } else throw Errors.field('mapping', 'needs an amount column, or debit and credit columns');
  need(m.description, 'description');
  need(m.counterparty, 'counterparty');
  need(m.external_id, 'external_id');
  need(m.currency, 'currency');
  if (m.has_header === false && !header.every((h, i) => h.trim() === String(i + 1)))
    throw Errors.field('header', 'of a file without a header row must be the column numbers "1", "2"...');
}

export async function listPresets({ db }: Db, userId: number) {
  return { list: (await repo.listPresets(db, userId)).map(toPreset) };
}

export async function createPreset(deps: Db, userId: number, b: PresetCreateBody) {
  const { db } = deps;
  const accountId = await checkPresetAccount(deps, userId, b.account_id ?? null);
  checkMapping(b.mapping, b.header);
  const name = cleanText(b.name, 'name', 1, 30);
  const presets = await repo.listPresets(db, userId);
  if (presets.length >= MAX_PRESETS) throw Errors.rule(`at most ${MAX_PRESETS} column mappings`);
  if (presets.some((p) => p.name === name)) throw Errors.conflict('you already have a column mapping with that name');
  const row = await repo.insertPreset(db, {
    userId,
    name,
    header: headerCells(b.header),
    mapping: b.mapping as Record<string, unknown>,
    accountId,
  });
  return toPreset(row);
}

export async function updatePreset(deps: Db, userId: number, id: number, b: PresetUpdateBody) {
  const { db } = deps;
  const p = await repo.findOwnPreset(db, userId, id);
  if (!p) throw Errors.notFound('column mapping');
  const header = b.header ? headerCells(b.header) : p.header;
  const mapping = (b.mapping ?? p.mapping) as unknown as ColumnMapping;
  checkMapping(mapping, header);
  const accountId = b.account_id === undefined ? p.accountId : await checkPresetAccount(deps, userId, b.account_id);
  const name = b.name === undefined ? p.name : cleanText(b.name, 'name', 1, 30);
  if (name !== p.name && (await repo.listPresets(db, userId)).some((x) => x.name === name))
    throw Errors.conflict('you already have a column mapping with that name');
  return toPreset(
    (await repo.updatePreset(db, userId, id, {
      name,
      header,
      mapping: mapping as unknown as Record<string, unknown>,
      accountId,
    }))!,
  );
}

export async function deletePreset({ db }: Db, userId: number, id: number) {
  if (!(await repo.deletePreset(db, userId, id))) throw Errors.notFound('column mapping');
}
