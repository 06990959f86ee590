import { Type, type Static } from 'typebox';
import { PageQuery } from '../../lib/pagination.ts';
import { Id, Timestamp } from '../../lib/schemas.ts';

export const Backup = Type.Object({
  id: Id,
  name: Type.String(),
  size: Type.Integer({ description: 'bytes of the gzip file; 0 until completed' }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('completed'), Type.Literal('failed')]),
  created_at: Timestamp,
  downloadToken: Type.Optional(
    Type.String({
      description: 'completed backups only: pass as ?token= to GET /api/backup/{id}/download within 10 minutes',
    }),
  ),
});
export type Backup = Static<typeof Backup>;

export const BackupList = Type.Object({ list: Type.Array(Backup), total: Type.Integer() });
export const BackupListQuery = Type.Object({ ...PageQuery });
export type BackupListQuery = Static<typeof BackupListQuery>;

export const BackupCreated = Type.Object({ id: Id });

export const DownloadQuery = Type.Object({
  token: Type.Optional(Type.String({ description: 'the downloadToken from the backup list' })),
});
