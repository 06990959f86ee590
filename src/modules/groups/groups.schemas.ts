import { Type, type Static } from 'typebox';
import { Id, Nullable, Text, Timestamp } from '../../lib/schemas.ts';

export const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const INVITE_CODE_LENGTH = 8;
export const GROUP_MEMBER_CAP = 50;

export const Role = Type.Union([Type.Literal('owner'), Type.Literal('member')]);

export const Group = Type.Object(
  {
    id: Id,
    name: Type.String(),
    owner_id: Id,
    role: Role,
    member_count: Type.Integer({ minimum: 0 }),
    invite_code: Type.String({
      description: `${INVITE_CODE_LENGTH} characters of ${INVITE_ALPHABET}; shown to every member`,
    }),
    currency: Type.String({ description: 'ISO 4217 code the group keeps its balances in' }),
    notify_threshold: Nullable(
      Type.Number({
        description: 'expenses of at least this amount (major units) notify the members sharing them; null: none do',
      }),
    ),
    split_costs: Type.Boolean({
      description:
        'records without an explicit `split` are shared equally among the members, so balances show who owes whom; ' +
        "false (a first-version client's group): shared books, only explicit splits and settlements make balances",
    }),
    dissolved: Type.Boolean(),
    created_at: Timestamp,
  },
  { title: 'Group', description: "`role` is the caller's role in the group" },
);
export type Group = Static<typeof Group>;

export const GroupList = Type.Object({ list: Type.Array(Group) });

export const CreateGroupBody = Type.Object(
  {
    name: Text(1, 30),
    currency: Type.Optional(
      Type.String({
        maxLength: 8,
        description: "ISO 4217 code of the group's balances; default the creator's base currency",
      }),
    ),
    split_costs: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'share records equally among the members unless they carry a split (default false: shared books without ' +
          'debts)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const JoinBody = Type.Object(
  {
    invite_code: Type.String({
      maxLength: 64,
      description: `${INVITE_CODE_LENGTH} characters of ${INVITE_ALPHABET}, accepted in any letter case; anything else is 40001`,
    }),
  },
  { additionalProperties: false },
);

export const InviteCode = Type.Object({ invite_code: Type.String() });

export const Member = Type.Object({
  user_id: Id,
  nickname: Type.String(),
  avatar_url: Nullable(Type.String()),
  role: Role,
  joined_at: Timestamp,
});
export type Member = Static<typeof Member>;

export const MemberList = Type.Object({ list: Type.Array(Member) });

export const RemoveMemberBody = Type.Object({ user_id: Id }, { additionalProperties: false });
