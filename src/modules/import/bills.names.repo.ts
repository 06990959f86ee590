import { Param, sql, type SQL } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import type { AccountType } from '../../lib/domain.ts';

/*
 * The names a file gives its categories and accounts, and what each maps to: the rows keep the
 * file's category name beside the category chosen for it, and the session keeps the accounts to
 * create on commit (result.create_accounts: the file's name -> the account's type).
 */

export interface FileCategory {
  name: string;
  kind: 'expense' | 'income';
  rows: number;
  category_id: number | null;
  match: 'exact' | 'similar' | 'chosen' | 'create';
}

/** the methods of a session whose account is created on commit */
export function creatingMethods(sessionId: number): SQL {
  return sql`(select jsonb_object_keys(coalesce(s.result -> 'create_accounts', '{}'::jsonb)) from import_sessions s where s.id = ${sessionId})`;
}

const loose = (v: SQL) => sql`lower(regexp_replace(normalize(${v}, NFKC), '\\s', '', 'g'))`;

/** How an existing name stands to the file's: the same, the same but for case and spaces, or another chosen. */
export function nameMatch(existing: SQL, fileName: SQL): SQL {
  return sql`case when ${existing} = ${fileName} then 'exact' when ${loose(existing)} = ${loose(fileName)} then 'similar' else 'chosen' end`;
}

/** The category names of the rows to import, in file order, each with the category its rows have (null: created). */
export async function fileCategories(db: Executor, sessionId: number): Promise<FileCategory[]> {
  const rows = await query<FileCategory>(
    db,
    sql`select g.name, g.kind, g.rows, g.category_id,
               case when g.category_id is null then 'create' else ${nameMatch(sql`c.name`, sql`g.name`)} end as match
        from (select kind, category_name as name, count(*)::int as rows, min(row) as first,
                     case when bool_or(category_id is null) then null else min(category_id) end as category_id
              from import_session_rows
              where session_id = ${sessionId} and decision = 'import' and kind <> 'transfer' and category_name is not null
              group by kind, category_name) g
        left join categories c on c.id = g.category_id
        order by g.first limit 200`,
  );
  return rows.map((r) => ({
    ...r,
    rows: Number(r.rows),
    category_id: r.category_id === null ? null : Number(r.category_id),
  }));
}

/** The methods of rows to book that no account stands for yet. */
export async function unmappedMethods(db: Executor, sessionId: number): Promise<string[]> {
  const rows = await query<{ method: string }>(
    db,
    sql`select distinct m.method from (
          select method from import_session_rows
          where session_id = ${sessionId} and decision in ('import', 'transfer') and account_id is null and method <> ''
          union all
          select to_method from import_session_rows
          where session_id = ${sessionId} and decision = 'transfer' and to_account_id is null and to_method <> ''
        ) m order by m.method limit 100`,
  );
  return rows.map((r) => r.method);
}

/** The accounts the session creates on commit: method -> type. */
export async function setCreating(db: Executor, sessionId: number, creating: Record<string, AccountType>) {
  await query(
    db,
    sql`update import_sessions set result = coalesce(result, '{}'::jsonb) || jsonb_build_object('create_accounts', ${JSON.stringify(creating)}::jsonb)
        where id = ${sessionId}`,
  );
}

/** Every row of a category name and kind given this category (null: the name's own, created on commit). */
export async function mapCategoryName(
  tx: Executor,
  sessionId: number,
  m: { name: string; kind: string; categoryId: number | null },
): Promise<number> {
  const rows = await query<{ row: number }>(
    tx,
    sql`update import_session_rows set category_id = ${m.categoryId}, edited = true
        where session_id = ${sessionId} and category_name = ${m.name} and kind = ${m.kind} returning row`,
  );
  return rows.length;
}

/** Every row paid with (or moving to) a method given this account (null: the one created on commit). */
export async function mapMethodName(
  tx: Executor,
  sessionId: number,
  method: string,
  accountId: number | null,
): Promise<number> {
  const from = await query<{ row: number }>(
    tx,
    sql`update import_session_rows set account_id = ${accountId}, edited = true
        where session_id = ${sessionId} and method = ${method} returning row`,
  );
  const to = await query<{ row: number }>(
    tx,
    sql`update import_session_rows set to_account_id = ${accountId}, edited = true
        where session_id = ${sessionId} and to_method = ${method} returning row`,
  );
  // a transfer set aside for want of an account is one again once both its sides have one
  await query(
    tx,
    sql`update import_session_rows set decision = 'transfer', reason = null
        where session_id = ${sessionId} and kind = 'transfer' and decision = 'skip' and reason = 'no_account'
          and (account_id is not null or method in ${creatingMethods(sessionId)})
          and (to_account_id is not null or to_method in ${creatingMethods(sessionId)})
          and (account_id is null or to_account_id is null or account_id <> to_account_id)`,
  );
  return from.length + to.length;
}

/** The methods to create an account for that rows to book still need, with the date of their first row. */
export async function methodsToCreate(tx: Executor, sessionId: number): Promise<{ method: string; first: string }[]> {
  return query<{ method: string; first: string }>(
    tx,
    sql`select m.method, to_char(min(m.date), 'YYYY-MM-DD') as first from (
          select method, date, row from import_session_rows
          where session_id = ${sessionId} and decision in ('import', 'transfer') and account_id is null
          union all
          select to_method, date, row from import_session_rows
          where session_id = ${sessionId} and decision = 'transfer' and to_account_id is null
        ) m where m.method in ${creatingMethods(sessionId)} group by m.method order by min(m.row)`,
  );
}

/** The rows of the methods given the accounts just created for them. */
export async function assignCreated(tx: Executor, sessionId: number, methods: string[], ids: number[]) {
  const pairs = sql`unnest(${new Param(methods)}::text[], ${new Param(ids)}::int[]) as k(m, id)`;
  await query(
    tx,
    sql`update import_session_rows r set account_id = k.id from ${pairs}
        where r.session_id = ${sessionId} and r.account_id is null and r.method = k.m`,
  );
  await query(
    tx,
    sql`update import_session_rows r set to_account_id = k.id from ${pairs}
        where r.session_id = ${sessionId} and r.to_account_id is null and r.to_method = k.m`,
  );
}
