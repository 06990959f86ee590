import type { Db, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { Errors } from '../../lib/errors.ts';
import { pageOf } from '../../lib/pagination.ts';
import { cleanText } from '../../lib/text.ts';
import { sendSystemNotice } from '../notifications/index.ts';
import * as feedbackRepo from './feedback.repo.ts';
import type { AdminFeedback, Feedback, FeedbackStatus, SubmitBody } from './feedback.schemas.ts';

/** The fallback title of the reply notice, for clients that do not render `feedback.replied`. */
export const REPLY_NOTICE_TITLE = '你的反馈有了回复 · Your feedback has a reply';

export function toFeedback(row: feedbackRepo.FeedbackRow): Feedback {
  return {
    id: row.id,
    content: row.content,
    contact: row.contact,
    status: row.status,
    reply: row.reply,
    replied_at: row.repliedAt ? row.repliedAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
  };
}

export function toAdminFeedback(row: feedbackRepo.FeedbackWithAuthor): AdminFeedback {
  return {
    ...toFeedback(row),
    user: { id: row.author.id, nickname: row.author.nickname, avatar_url: row.author.avatarUrl },
  };
}

/** Tells the author about a reply; runs inside the reply's transaction. */
export type ReplyNotifier = (tx: Executor, fb: feedbackRepo.FeedbackRow, adminId: number) => Promise<void>;

export const notifyAuthor: ReplyNotifier = async (tx, fb, adminId) => {
  await sendSystemNotice(tx, {
    userId: fb.userId,
    key: 'feedback.replied',
    params: { reply: fb.reply ?? '' },
    title: REPLY_NOTICE_TITLE,
    content: fb.reply ?? '',
    link: '/feedback',
    createdBy: adminId,
  });
};

export interface FeedbackServiceDeps {
  db: Db;
  clock: Clock;
  notify?: ReplyNotifier;
  repo?: typeof feedbackRepo;
}

export function createFeedbackService({ db, clock, notify = notifyAuthor, repo = feedbackRepo }: FeedbackServiceDeps) {
  async function adminView(id: number): Promise<AdminFeedback> {
    const row = await repo.findWithAuthor(db, id);
    if (!row) throw Errors.notFound('feedback');
    return toAdminFeedback(row);
  }

  return {
    async submit(userId: number, body: SubmitBody): Promise<Feedback> {
      const content = cleanText(body.content, 'content', 1, 2000);
      const contact = body.contact == null ? null : cleanText(body.contact, 'contact', 0, 100) || null;
      return toFeedback(await repo.insertFeedback(db, userId, content, contact));
    },

    async mine(userId: number, q: { page?: number; pageSize?: number }) {
      const { limit, offset } = pageOf(q);
      const { rows, total } = await repo.listOfUser(db, userId, limit, offset);
      return { list: rows.map(toFeedback), total };
    },

    async adminList(q: { status?: FeedbackStatus; page?: number; pageSize?: number }) {
      const { limit, offset } = pageOf(q);
      const { rows, total } = await repo.listAll(db, q.status, limit, offset);
      return { list: rows.map(toAdminFeedback), total };
    },

    /**
     * Stores the reply, marks the feedback replied and notifies the author, all in one database
     * transaction: either the author sees the reply in their notifications or nothing changed.
     */
    async reply(adminId: number, id: number, text: string): Promise<AdminFeedback> {
      const reply = cleanText(text, 'reply', 1, 2000);
      await db.transaction(async (tx) => {
        const fb = await repo.lockFeedback(tx, id);
        if (!fb) throw Errors.notFound('feedback');
        if (fb.status === 'closed') throw Errors.rule('the feedback is closed; reopen it before replying');
        const updated = await repo.updateFeedback(tx, id, fb.status, {
          status: 'replied',
          reply,
          repliedAt: clock.now(),
          repliedBy: adminId,
        });
        if (!updated) throw Errors.notFound('feedback');
        await notify(tx, updated, adminId);
      });
      return adminView(id);
    },

    /** Closes any feedback, or reopens a closed one; `replied` is reached only by a reply (42201). */
    async setStatus(id: number, status: FeedbackStatus): Promise<AdminFeedback> {
      await db.transaction(async (tx) => {
        const fb = await repo.lockFeedback(tx, id);
        if (!fb) throw Errors.notFound('feedback');
        if (status === 'replied') throw Errors.rule('a feedback becomes replied only by a reply');
        if (status === fb.status) return;
        if (status === 'pending' && fb.status !== 'closed') throw Errors.rule('only a closed feedback can be reopened');
        await repo.updateFeedback(tx, id, fb.status, { status });
      });
      return adminView(id);
    },
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
