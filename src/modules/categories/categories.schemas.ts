import { Type, type Static } from 'typebox';
import { Color, Id, Kind, Text, Timestamp } from '../../lib/schemas.ts';

export const MAX_CATEGORIES_PER_USER = 200;

export const CategorySchema = Type.Object(
  {
    id: Id,
    name: Type.String(),
    color: Color,
    kind: Kind,
    icon: Type.String({ description: 'an icon key chosen by the client; empty when none' }),
    sort: Type.Integer({ description: 'position among the categories of its kind, ascending' }),
    created_at: Timestamp,
  },
  { title: 'Category' },
);
export type CategoryView = Static<typeof CategorySchema>;

export const CategoryListQuery = Type.Object({ kind: Type.Optional(Kind) });

export const CategoryList = Type.Object({ list: Type.Array(CategorySchema) }, { title: 'CategoryList' });

const Icon = Type.String({ maxLength: 50, description: 'at most 50 characters' });

export const CategoryCreateBody = Type.Object({
  name: Text(1, 20),
  color: Color,
  kind: Kind,
  icon: Type.Optional(Icon),
});
export type CategoryCreateBody = Static<typeof CategoryCreateBody>;

export const CategoryUpdateBody = Type.Object({
  name: Type.Optional(Text(1, 20)),
  color: Type.Optional(Color),
  icon: Type.Optional(Icon),
  // listed only to be refused: removeAdditional would otherwise drop it silently
  kind: Type.Optional(Type.Never({ description: 'the kind of a category cannot change; sending it is 40001' })),
});
export type CategoryUpdateBody = Static<typeof CategoryUpdateBody>;

export const CategorySortBody = Type.Object({
  ids: Type.Array(Id, {
    minItems: 1,
    maxItems: 200,
    description: "every one of the caller's categories of one kind, each once, in the new order",
  }),
});

export const MigrateBody = Type.Object({ target_id: Id });
export const MigrateResult = Type.Object({ moved: Type.Integer({ description: 'number of transactions moved' }) });

export const DeleteQuery = Type.Object({
  migrate_to: Type.Optional(Id),
});

export const SuggestQuery = Type.Object({
  kind: Type.Optional(
    Type.Union([Type.Literal('expense'), Type.Literal('income')], {
      default: 'expense',
      description: 'expense (default) or income',
    }),
  ),
  amount: Type.Optional(
    Type.String({ maxLength: 32, description: 'the amount being recorded, major units (> 0, at most 2 decimals)' }),
  ),
  note: Type.Optional(Type.String({ maxLength: 264, description: 'the note being typed (0 to 200 characters)' })),
});
export type SuggestQuery = Static<typeof SuggestQuery>;

export const SuggestResult = Type.Object(
  {
    list: Type.Array(
      Type.Object({
        category_id: Id,
        name: Type.String(),
        color: Color,
        score: Type.Number({
          minimum: 0,
          maximum: 1,
          description: '0 to 1, at most 4 decimals; higher is a better match',
        }),
      }),
      { maxItems: 3 },
    ),
    preselect: Type.Union([Id, Type.Null()], {
      description:
        'the category a form should select for the person, or null when confidence is low (then nothing is ' +
        'selected): the best of the ' +
        "history when one of the caller's past notes matches this one, else the category a keyword of the note names " +
        '(地铁 → 交通, Netflix → Entertainment)',
    }),
  },
  { title: 'CategorySuggestions' },
);
export type SuggestResult = Static<typeof SuggestResult>;
