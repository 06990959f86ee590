import { sql } from 'drizzle-orm';
import { accessSql } from '../../lib/access.ts';
import type { Db } from '../../db/client.ts';
import { query } from '../../db/client.ts';
import type { TransactionView } from './transactions.schemas.ts';
import { insertChecked, toTransactionView, type CheckedInsert, type TagRef } from './transactions.repo.ts';

interface Pending {
  row: CheckedInsert;
  resolve: (v: TransactionView | null) => void;
  reject: (err: unknown) => void;
}

interface BatchRow {
  idx: number;
  id: number;
  account_id: number;
  currency: string;
  created_at: Date | string;
  updated_at: Date | string;
  category_name: string;
  category_color: string;
  owner_nickname: string;
  owner_avatar_url: string | null;
  tags: TagRef[] | string;
}

const MAX_BATCH = 100;

/**
 * Coalesces the transactions recorded at the same moment into one statement (one round trip and
 * one commit for all of them), the way a database groups commits. Each row keeps its own checks
 * (category, tags, group membership): a row that fails them is left out and answered null, the
 * others are written. If the statement itself fails, every row is retried on its own, so one bad
 * row never costs another its write.
 */
export function createInsertBatcher(db: Db, maxInFlight = 4) {
  let queue: Pending[] = [];
  let scheduled = false;
  let inFlight = 0;

  async function runBatch(batch: Pending[]): Promise<void> {
    if (batch.length === 1) {
      const [p] = batch;
      await insertChecked(db, p!.row).then(p!.resolve, p!.reject);
      return;
    }
    let rows: BatchRow[];
    try {
      rows = await insertMany(db, batch.map((p) => p.row));
    } catch {
      // a row broke the statement (say, its category was deleted meanwhile): each on its own
      await Promise.all(batch.map((p) => insertChecked(db, p.row).then(p.resolve, p.reject)));
      return;
    }
    const byIdx = new Map(rows.map((r) => [r.idx, r]));
    batch.forEach((p, idx) => {
      const r = byIdx.get(idx);
      if (!r) return p.resolve(null);
      const v = p.row;
      p.resolve(
        toTransactionView(
          {
            id: r.id,
            kind: v.kind,
            amountCents: v.amountCents,
            categoryId: v.categoryId,
            note: v.note,
            date: v.date,
            groupId: v.groupId,
            userId: v.userId,
            recurringId: null,
            accountId: r.account_id,
            currency: r.currency,
            toAccountId: null,
            toAmount: null,
            toCurrency: null,
            createdAt: new Date(r.created_at),
            updatedAt: new Date(r.updated_at),
            categoryName: r.category_name,
            categoryColor: r.category_color,
            categoryKind: v.kind,
            ownerNickname: r.owner_nickname,
            ownerAvatarUrl: r.owner_avatar_url,
          },
          typeof r.tags === 'string' ? (JSON.parse(r.tags) as TagRef[]) : r.tags,
        ),
      );
    });
  }

  function pump(): void {
    scheduled = false;
    while (queue.length && inFlight < maxInFlight) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(MAX_BATCH);
      inFlight++;
      runBatch(batch)
        .catch((err) => batch.forEach((p) => p.reject(err)))
        .finally(() => {
          inFlight--;
          if (queue.length && !scheduled) {
            scheduled = true;
            setImmediate(pump);
          }
        });
    }
  }

  return {
    /** Records one transaction; null when its category, tags or group did not pass the checks. */
    insert(row: CheckedInsert): Promise<TransactionView | null> {
      return new Promise((resolve, reject) => {
        queue.push({ row, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          // requests arriving in the same turn of the event loop share the statement
          setImmediate(pump);
        }
      });
    },
  };
}

/** The rows that passed their checks, with their new ids, in one statement. */
async function insertMany(db: Db, rows: CheckedInsert[]): Promise<BatchRow[]> {
  const input = JSON.stringify(
    rows.map((r, idx) => ({
      idx,
      user_id: r.userId,
      kind: r.kind,
      amount_cents: r.amountCents,
      category_id: r.categoryId,
      note: r.note,
      date: r.date,
      group_id: r.groupId,
      account_id: r.accountId,
      tag_ids: r.tagIds,
    })),
  );
  return query<BatchRow>(
    db,
    sql`
    with input as (
      select x.idx, x.user_id, x.kind, x.amount_cents, x.category_id, x.note, x.date, x.group_id, x.account_id,
             array(select jsonb_array_elements_text(x.tag_ids)::int) as tag_ids
      from jsonb_to_recordset(${input}::jsonb) as x(idx int, user_id int, kind text, amount_cents bigint, category_id int,
                                                   note text, date date, group_id int, account_id int, tag_ids jsonb)
    ), ok as materialized (
      select i.idx, i.user_id, i.kind, i.amount_cents, i.category_id, i.note, i.date, i.group_id, i.tag_ids,
             a.id as acc_id, a.currency, c.name as category_name, c.color as category_color,
             nextval(pg_get_serial_sequence('transactions', 'id')) as new_id
      from input i
      join categories c on ${accessSql.categoryOfKind(sql`c`, sql`i.category_id`, sql`i.user_id`, sql`i.kind`)}
      join accounts a on ${accessSql.baseAccount(sql`a`, sql`i.account_id`, sql`i.user_id`)}
      where ${accessSql.tags(sql`i.tag_ids`, sql`i.user_id`)} and ${accessSql.writableGroupOrNone(sql`i.group_id`, sql`i.user_id`)}
    ), ins as (
      insert into transactions (id, user_id, kind, amount_cents, category_id, note, date, group_id, account_id, currency, base_amount)
      select new_id, user_id, kind, amount_cents, category_id, note, date, group_id, acc_id, currency, amount_cents from ok
      returning id, created_at, updated_at
    ), tt as (
      insert into transaction_tags (transaction_id, tag_id) select ok.new_id, t from ok, unnest(ok.tag_ids) t
    )
    select ok.idx, ins.id, ok.acc_id as account_id, ok.currency, ins.created_at, ins.updated_at, ok.category_name, ok.category_color,
           u.nickname as owner_nickname, u.avatar_url as owner_avatar_url,
           coalesce((select json_agg(json_build_object('id', g.id, 'name', g.name) order by g.name, g.id)
                     from tags g where g.id = any(ok.tag_ids) and g.user_id = ok.user_id), '[]'::json) as tags
    from ok join ins on ins.id = ok.new_id join users u on u.id = ok.user_id`,
  );
}
