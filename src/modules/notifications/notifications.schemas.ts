import { Type, type Static } from 'typebox';
import { PageQuery } from '../../lib/pagination.ts';
import { Id, listOf, Nullable, Text, Timestamp } from '../../lib/schemas.ts';

export const Scope = Type.Union([Type.Literal('system'), Type.Literal('group'), Type.Literal('personal')], {
  description: '`system`: everyone; `group`: the members of `group_id`; `personal`: the user `user_id`',
});
export type Scope = Static<typeof Scope>;

export const Notification = Type.Object(
  {
    id: Id,
    scope: Scope,
    title: Type.String({
      description: 'as written; for a notice the service wrote (`key` set), a fallback text in Chinese and English',
    }),
    content: Type.String(),
    key: Nullable(
      Type.String({
        description:
          "a notice the service wrote names its message, for clients to render in their reader's language from " +
          '`params`: ' +
          '`feedback.replied` {reply}; `split.expense`, `split.income` {group, group_id, who, amount, share, ' +
          'currency, note}; ' +
          '`settlement.paid_you`, `settlement.received`, `settlement.confirmed` {group, group_id, who, amount, ' +
          'currency}; ' +
          '`budget.exceeded` {month, amount, spent, currency}; `backup.completed` {name, size}; `backup.failed` ' +
          '{name}. ' +
          'Amounts are numbers in major units of `currency`. null for notices people write (announcements): show ' +
          'title and content as written',
      }),
    ),
    params: Nullable(
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]), {
        description: "the values of `key`'s message",
      }),
    ),
    link_url: Nullable(
      Type.String({
        description: 'an https:/http: URL or an in-app route of the web client (service notices: always a route)',
      }),
    ),
    image_url: Nullable(Type.String()),
    pinned: Type.Boolean(),
    strong: Type.Boolean({ description: 'a strong reminder: clients show it prominently until read' }),
    publish_at: Nullable(Timestamp),
    expire_at: Nullable(Timestamp),
    group_id: Nullable(Id),
    user_id: Nullable(Id),
    read: Type.Boolean({ description: 'whether the caller has read it' }),
    created_at: Timestamp,
  },
  { title: 'Notification' },
);
export type Notification = Static<typeof Notification>;

export const NotificationList = listOf(Notification);

export const ListQuery = Type.Object({ scope: Type.Optional(Scope), ...PageQuery });

export const UnreadCount = Type.Object({
  count: Type.Integer({ minimum: 0, description: 'unread visible notifications of every scope' }),
  strong: Type.Array(Notification, {
    description: 'the unread strong reminders, pinned first then newest first (at most 100)',
  }),
});

export const Updated = Type.Object({
  updated: Type.Integer({ minimum: 0, description: 'notifications newly marked read' }),
});

const Link = (what: string) =>
  Nullable(
    Type.String({
      maxLength: 2048,
      description: `${what}: an https:/http: URL or an in-app path starting with a single "/"; anything else is 40001`,
    }),
  );
const When = (what: string) =>
  Nullable(Type.String({ format: 'date-time', description: `${what}, an ISO 8601 timestamp with a zone` }));

const publishFields = {
  scope: Scope,
  title: Text(1, 100),
  content: Text(1, 5000),
  link_url: Type.Optional(Link('link')),
  image_url: Type.Optional(Link('image')),
  pinned: Type.Optional(Type.Boolean()),
  strong: Type.Optional(Type.Boolean()),
  publish_at: Type.Optional(When('shown from this time on; null or absent: at once')),
  expire_at: Type.Optional(When('hidden from this time on (must be after publish_at); null or absent: never')),
  group_id: Type.Optional(Nullable(Id)),
  user_id: Type.Optional(Nullable(Id)),
};

export const PublishBody = Type.Object(publishFields, { additionalProperties: false });
export type PublishBody = Static<typeof PublishBody>;

export const UpdateBody = Type.Object(
  {
    scope: Type.Optional(publishFields.scope),
    title: Type.Optional(publishFields.title),
    content: Type.Optional(publishFields.content),
    link_url: publishFields.link_url,
    image_url: publishFields.image_url,
    pinned: publishFields.pinned,
    strong: publishFields.strong,
    publish_at: publishFields.publish_at,
    expire_at: publishFields.expire_at,
    group_id: publishFields.group_id,
    user_id: publishFields.user_id,
  },
  { additionalProperties: false },
);
export type UpdateBody = Static<typeof UpdateBody>;

export const PinBody = Type.Object({ pinned: Type.Boolean() }, { additionalProperties: false });
