import type { FastifyInstance } from 'fastify';
import { userOf } from '../../plugins/auth.ts';
import { typed } from '../routes.ts';
import { GroupImportBody, GroupImportPreview, GroupImportResult } from './group-import.schemas.ts';
import type { GroupImportService } from './group-import.service.ts';

const WHAT =
  "A group's history exported from Splitwise (its CSV: Date, Description, Category, Cost, Currency, one column per " +
  'person with their net for the row, a last Total balance row) or Spliit (its JSON export, or its CSV), sent as ' +
  'the text of the file (`content`). Each expense is recorded in the group with its payer and every share exactly as ' +
  'the file has them (a Splitwise row owed to several people: one record per person owed; a payment: a confirmed ' +
  'settlement), as records of the caller that move none of their accounts, so the balances of the group move by the ' +
  "file's own balances. People of the file are members of the group: matched by nickname, named in `members`, or " +
  'placeholder members created for them (nobody can sign in as one). Without `group_id` a new group is created ' +
  "(`group_name`, else the file's; in the file's currency or `currency`; the caller its owner, splitting costs), " +
  'unless the file was imported before: then its group. With `group_id`: a live group the caller owns (else 40302, ' +
  'dissolved 40902) in the currency of the file. Records and payments already in the group are not added again. ' +
  "Categories: the caller's of the same name, else Other. ";

/** POST /api/groups/import/preview and POST /api/groups/import. */
export default async function groupImportRoutes(
  fastify: FastifyInstance,
  { groupImport: service }: { groupImport: GroupImportService },
) {
  const app = typed(fastify);
  app.post(
    '/api/groups/import/preview',
    {
      schema: {
        summary: 'What importing a Splitwise or Spliit export into a group would do (nothing is written)',
        description:
          WHAT +
          'The answer names the group, each person with whom they will be and their totals in the file (and ' +
          "Splitwise's own), the records and payments to add, and the rows refused with their reasons (`errors`). " +
          'A text that is none of these exports: 42203 (code group_format).',
        body: GroupImportBody,
        response: { 200: GroupImportPreview },
      },
    },
    async (req) => service.preview(userOf(req).id, req.body),
  );
  app.post(
    '/api/groups/import',
    {
      schema: {
        summary: 'Import a Splitwise or Spliit export into a group, all or nothing',
        description:
          WHAT +
          'Any refused row (as the preview lists them, e.g. a Splitwise total that the rows do not add up to): 42203 ' +
          'naming every row, and nothing is written. A member named in `members` who is not one: 40001; more than ' +
          '50 members: 42201.',
        body: GroupImportBody,
        response: { 201: GroupImportResult },
      },
    },
    async (req, reply) => reply.code(201).send(await service.commit(userOf(req).id, req.body)),
  );
}
