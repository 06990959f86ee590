import { Type, type Static } from 'typebox';
import { CalendarDate, Id, Text, Timestamp } from '../../lib/schemas.ts';
import { SortValue } from '../transactions/index.ts';

/** The keys of a saved filter: the transaction list's filters, id lists as arrays and amount bounds as numbers. */
export const CRITERIA_KEYS = [
  'startDate',
  'endDate',
  'kind',
  'category_ids',
  'tag_ids',
  'min_amount',
  'max_amount',
  'keyword',
  'group_id',
  'user_id',
  'sort',
] as const;

const IdArray = (what: string) =>
  Type.Array(Id, { maxItems: 200, description: `ids of your own ${what}, any of them matches` });
const Bound = (which: string) =>
  Type.Number({
    minimum: 0,
    description: `${which} amount in major units, inclusive; 0 is a valid bound; at most 2 decimals`,
  });

// No `additionalProperties: false` here: the body validator would silently drop unknown keys,
// and an unknown key must be refused (40001) by the service instead.
export const Criteria = Type.Object(
  {
    startDate: Type.Optional(CalendarDate),
    endDate: Type.Optional(CalendarDate),
    kind: Type.Optional(Type.Union([Type.Literal('expense'), Type.Literal('income'), Type.Literal('all')])),
    category_ids: Type.Optional(IdArray('categories')),
    tag_ids: Type.Optional(IdArray('tags')),
    min_amount: Type.Optional(Bound('lowest')),
    max_amount: Type.Optional(Bound('highest')),
    keyword: Type.Optional(Type.String({ maxLength: 200, description: 'text searched in the note' })),
    group_id: Type.Optional(Id),
    user_id: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2147483647, description: 'one member; only with group_id' }),
    ),
    sort: Type.Optional(SortValue),
  },
  // open to the validator so that the service refuses an unknown key by name (40001), as the first
  // contract says, instead of it being dropped with the unknown fields of the body
  {
    title: 'FilterCriteria',
    additionalProperties: true,
    description:
      'the keys of the transaction list filters; any other key is refused (40001); returned exactly as stored',
  },
);
export type Criteria = Static<typeof Criteria>;

export const SavedFilterSchema = Type.Object(
  {
    id: Id,
    name: Type.String(),
    criteria: Criteria,
    created_at: Timestamp,
  },
  { title: 'SavedFilter' },
);
export type SavedFilterView = Static<typeof SavedFilterSchema>;

export const SavedFilterList = Type.Object({ list: Type.Array(SavedFilterSchema) });
export type SavedFilterList = Static<typeof SavedFilterList>;

export const SavedFilterCreateBody = Type.Object({ name: Text(1, 30), criteria: Criteria });
export type SavedFilterCreateBody = Static<typeof SavedFilterCreateBody>;

export const SavedFilterUpdateBody = Type.Object({
  name: Type.Optional(Text(1, 30)),
  criteria: Type.Optional(Criteria),
});
export type SavedFilterUpdateBody = Static<typeof SavedFilterUpdateBody>;
