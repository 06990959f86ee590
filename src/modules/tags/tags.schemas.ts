import { Type, type Static } from 'typebox';
import { Color, Id, Nullable, Text, Timestamp } from '../../lib/schemas.ts';

export const TagSchema = Type.Object(
  {
    id: Id,
    name: Type.String(),
    color: Nullable(Color),
    created_at: Timestamp,
  },
  { title: 'Tag' },
);
export type TagView = Static<typeof TagSchema>;

export const TagList = Type.Object({ list: Type.Array(TagSchema) });
export type TagList = Static<typeof TagList>;

export const TagCreateBody = Type.Object({
  name: Text(1, 20),
  color: Type.Optional(Nullable(Color)),
});
export type TagCreateBody = Static<typeof TagCreateBody>;

export const TagUpdateBody = Type.Object({
  name: Type.Optional(Text(1, 20)),
  color: Type.Optional(Nullable(Color)),
});
export type TagUpdateBody = Static<typeof TagUpdateBody>;
