import { Type, type Static } from 'typebox';
import { CalendarDate, Id, Nullable, Timestamp } from '../../lib/schemas.ts';

export const AttachmentSchema = Type.Object({
  id: Id,
  transaction_id: Id,
  name: Type.String({ description: 'the file name it was sent with' }),
  mime: Type.Union([
    Type.Literal('image/jpeg'),
    Type.Literal('image/png'),
    Type.Literal('image/webp'),
    Type.Literal('application/pdf'),
  ]),
  size: Type.Integer({ description: 'bytes as stored (location data removed)' }),
  width: Nullable(Type.Integer()),
  height: Nullable(Type.Integer()),
  has_thumbnail: Type.Boolean({ description: 'images have a WebP thumbnail of at most 320 px' }),
  created_at: Timestamp,
});
export type AttachmentSchema = Static<typeof AttachmentSchema>;

export const AttachmentList = Type.Object({ list: Type.Array(AttachmentSchema) });

export const AttachmentUsage = Type.Object({
  used_bytes: Type.Integer(),
  quota_bytes: Type.Integer({ description: 'ATTACHMENT_QUOTA_MB of the server' }),
});

export const ExportQuery = Type.Object({ start_date: CalendarDate, end_date: CalendarDate });
