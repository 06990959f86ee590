import { Type, type Static } from 'typebox';
import { PageQuery } from '../../lib/pagination.ts';
import { Id, listOf, Nullable, Text, Timestamp } from '../../lib/schemas.ts';

export const FeedbackStatus = Type.Union([Type.Literal('pending'), Type.Literal('replied'), Type.Literal('closed')], {
  description:
    '`pending` -> `replied` (by a reply) -> `closed`; an administrator may close any, reopen a closed one to ' +
    '`pending`, and reply again while `replied`',
});
export type FeedbackStatus = Static<typeof FeedbackStatus>;

export const Feedback = Type.Object(
  {
    id: Id,
    content: Type.String(),
    contact: Nullable(Type.String()),
    status: FeedbackStatus,
    reply: Nullable(Type.String()),
    replied_at: Nullable(Timestamp),
    created_at: Timestamp,
  },
  { title: 'Feedback' },
);
export type Feedback = Static<typeof Feedback>;

export const Author = Type.Object({ id: Id, nickname: Type.String(), avatar_url: Nullable(Type.String()) });

export const AdminFeedback = Type.Object(
  {
    ...Feedback.properties,
    user: Author,
  },
  { title: 'AdminFeedback', description: 'feedback with its author' },
);
export type AdminFeedback = Static<typeof AdminFeedback>;

export const FeedbackList = listOf(Feedback);
export const AdminFeedbackList = listOf(AdminFeedback);

export const SubmitBody = Type.Object(
  {
    content: Text(1, 2000),
    contact: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 164,
          description: 'how to reach the author (e-mail, phone...): 0 to 100 characters after trimming',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);
export type SubmitBody = Static<typeof SubmitBody>;

export const MineQuery = Type.Object(PageQuery);
export const AdminQuery = Type.Object({ status: Type.Optional(FeedbackStatus), ...PageQuery });

export const ReplyBody = Type.Object({ reply: Text(1, 2000) }, { additionalProperties: false });
export const StatusBody = Type.Object({ status: FeedbackStatus }, { additionalProperties: false });
