import { sql } from 'drizzle-orm';
import { query, type Executor } from '../../db/client.ts';
import { insertNotification, type NotificationInsert } from './notifications.repo.ts';

/**
 * The notifications the service writes itself, each named by a key that clients render in their
 * reader's language from its params. Money goes as a number in major units beside its currency
 * code, so that each client formats it for its language. `title` and `content` keep a readable
 * text (Chinese and English) for clients that do not know the keys. Links are routes of the web
 * client, never API paths.
 */
export interface SystemNotices {
  /** an administrator answered the reader's feedback */
  'feedback.replied': { reply: string };
  /** a member recorded a shared expense or income the reader takes part in */
  'split.expense': SharedRecord;
  'split.income': SharedRecord;
  /** `who` recorded paying the reader: please confirm */
  'settlement.paid_you': SettlementFacts;
  /** `who` recorded receiving a payment from the reader */
  'settlement.received': SettlementFacts;
  /** `who` confirmed the reader's payment */
  'settlement.confirmed': SettlementFacts;
  /** the reader's month total is spent past its amount */
  'budget.exceeded': { month: string; amount: number; spent: number; currency: string };
  /** a backup the reader started has finished */
  'backup.completed': { name: string; size: number };
  'backup.failed': { name: string };
}

export interface SharedRecord {
  group: string;
  group_id: number;
  who: string;
  amount: number;
  share: number;
  currency: string;
  note: string;
}

export interface SettlementFacts {
  group: string;
  group_id: number;
  /** absent in notices written before it was added */
  settlement_id?: number;
  who: string;
  amount: number;
  currency: string;
}

export type NoticeKey = keyof SystemNotices;

/** One personal notice the service writes to `userId`. */
export interface SystemNotice<K extends NoticeKey = NoticeKey> {
  userId: number;
  key: K;
  params: SystemNotices[K];
  /** the fallback text for clients that do not know `key` */
  title: string;
  content: string;
  /** an in-app route of the web client */
  link: string | null;
  createdBy: number | null;
}

export function noticeValues<K extends NoticeKey>(n: SystemNotice<K>): NotificationInsert {
  if (n.link !== null && !/^\/(?!\/|api\/)/.test(n.link))
    throw new Error(`a system notice links to an in-app route, not ${n.link}`);
  return {
    scope: 'personal',
    userId: n.userId,
    key: n.key,
    params: { ...n.params },
    title: n.title.slice(0, 100),
    content: n.content.slice(0, 5000) || n.title.slice(0, 100),
    linkUrl: n.link,
    createdBy: n.createdBy,
  };
}

export async function sendSystemNotice<K extends NoticeKey>(ex: Executor, n: SystemNotice<K>): Promise<void> {
  await insertNotification(ex, noticeValues(n));
}

/**
 * Marks read the reader's notices of `key` whose params hold every one of `params`: a notice asking
 * for something (confirm a payment) is settled once it is done, wherever it was done from.
 * Answers how many were newly marked.
 */
export async function markNoticesRead<K extends NoticeKey>(
  ex: Executor,
  userId: number,
  key: K,
  params: Partial<SystemNotices[K]>,
): Promise<number> {
  const rows = await query<{ notification_id: number }>(
    ex,
    sql`insert into notification_reads (notification_id, user_id)
        select n.id, ${userId} from notifications n
        where n.scope = 'personal' and n.user_id = ${userId} and n.key = ${key}
          and n.params @> ${JSON.stringify(params)}::jsonb
        on conflict do nothing
        returning notification_id`,
  );
  return rows.length;
}
