import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Errors } from '../../lib/errors.ts';
import { IdParams, NoContent } from '../../lib/schemas.ts';
import { userOf } from '../../plugins/auth.ts';
import { dataFileFormat } from '../../plugins/metrics.ts';
import { clientGone, readUpload } from '../../plugins/uploads.ts';
import { FORMAT_TEXT } from '../export/index.ts';
import { IDEMPOTENCY_KEY_PATTERN, withIdempotency } from '../idempotency/index.ts';
import { typed, type TypedApp } from '../routes.ts';
import {
  BillQuery,
  CommitResult,
  ImportQuery,
  ImportResult,
  PatchBody,
  PatchResult,
  PresetCreateBody,
  PresetList,
  PresetSchema,
  PresetUpdateBody,
  Preview,
  PreviewQuery,
  RuleCreateBody,
  RuleList,
  RuleOrderBody,
  RuleSchema,
  RuleUpdateBody,
} from './import.schemas.ts';
import { type BillImportService, PREVIEW_ROWS } from './bills.service.ts';
import { importFile } from './import.service.ts';
import { BILL_MAX_ROWS, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS } from './import.rows.ts';

const FORMATS_TEXT =
  'The format is found from the content, never the file name: a WeChat Pay bill (CSV in UTF-8 or the XLSX export: ' +
  'the account block, then ' +
  '交易时间, 交易类型, 交易对方, 商品, 收/支, 金额(元), 支付方式, 当前状态, 交易单号, 商户单号, 备注), an Alipay bill (CSV in GB18030: the app export ' +
  '交易时间, 交易分类, 交易对方, 对方账号, 商品说明, 收/支, 金额, 收/付款方式, 交易状态, 交易订单号, 商家订单号, 备注, or the older web export ' +
  '交易号, 商家订单号, 交易创建时间, …, 金额（元）, 收/支, 交易状态, 服务费（元）, 成功退款（元）, 备注, 资金状态), our own CSV or JSON export (`ledger`), ' +
  'or any CSV or XLSX whose header row equals the header of one of your column mappings (`mapped`; `preset_id` restricts detection to that one).';

/** POST /api/import (our own CSV/JSON, all or nothing) and the bill previews, their rules and column mappings. */
export default async function importRoutes(
  fastify: FastifyInstance,
  { billImport: service }: { billImport: BillImportService },
) {
  const app = typed(fastify);
  registerFileImport(app);
  registerBillReading(app, service);
  registerPreviewRoutes(app, service);
  registerRuleRoutes(app, service);
  registerPresetRoutes(app, service);
}

/** POST /api/import: our own CSV or JSON export, all or nothing. */
function registerFileImport(app: TypedApp) {
  app.post(
    '/api/import',
    {
      schema: {
        summary: 'Import transactions from a CSV or JSON file (multipart field `file`)',
        description:
          `The file as the export writes it. ${FORMAT_TEXT} Import reads UTF-8 (with or without BOM) and GB18030/GBK, ` +
          'recognised from the bytes, and CSV or JSON, recognised from the content. CSV needs a header row naming at ' +
          'least ' +
          'date, kind, amount and category (note, tags, group_id, created_at, account, currency, to_account, ' +
          'to_amount and rate optional, other columns ignored; ' +
          "the `'` formula prefix is removed). A file without the account columns still imports: its rows go to the " +
          'default account, amounts in its currency. ' +
          'An `account` (or `to_account`) name the caller does not have is CREATED by the import (type other, in the ' +
          "row's `currency`, else the base currency, " +
          "opening balance 0 on the date of its first row) and the answer's `accounts_created` names it; archived " +
          'accounts are matched by name as well. ' +
          "Row errors of the money columns: a `currency` other than its account's, more decimals than that currency " +
          'has, a row in a foreign currency ' +
          "without `rate` and without a rate in the caller's rates on or before its date, a transfer without " +
          'to_account, to the same account, or between ' +
          'currencies without to_amount, a category on a transfer or an adjustment, a transfer or an adjustment in a ' +
          'group. ' +
          `At most ${IMPORT_MAX_BYTES / 1048576} MiB and ${IMPORT_MAX_ROWS} rows (more: 41301). A file that is not CSV or JSON at all: 40001. ` +
          'All or nothing: any invalid row answers 422 code 42203 with `errors: [{row, message}]` listing every bad ' +
          'row (row 1 = the first data row) and nothing is written. ' +
          'A row counts as a duplicate (skipped) while the caller already has as many transactions with the same ' +
          'date, kind, amount, category, note and account ' +
          "as the file holds so far; so importing the same file twice, or one's own export, adds nothing. Unknown " +
          'category names are created with ' +
          "the row's kind (refused past 200 categories per user), unknown tag names are created. A group_id is kept " +
          'only when the caller is a member of ' +
          'that live group; otherwise the row is imported as personal. created_at is kept when given, else the ' +
          'import time. ' +
          '`?dry_run=true` answers 200 with what a real run would do and writes nothing: with invalid rows, ' +
          '`imported: 0, skipped: 0` and the `errors`. ' +
          'An optional Idempotency-Key header (1 to 64 visible characters) replays the first answer for the same ' +
          'file and dry_run.',
        consumes: ['multipart/form-data'],
        querystring: ImportQuery,
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ pattern: IDEMPOTENCY_KEY_PATTERN })) }),
        response: { 200: ImportResult },
      },
    },
    async (req, reply) => {
      const user = userOf(req);
      if (!req.isMultipart()) throw Errors.unsupportedMedia('send the file as multipart/form-data, field "file"');
      const signal = clientGone(req, reply);
      const file = await req.file({ limits: { fileSize: IMPORT_MAX_BYTES } });
      if (!file || file.fieldname !== 'file') throw Errors.field('file', 'is required');
      const bytes = await readUpload(file);
      const dryRun = req.query.dry_run === true;
      const measured = app.metrics.importTimer(dryRun ? 'import_dry_run' : 'import', bytes.length);
      const out = await withIdempotency(
        app.db,
        {
          userId: user.id,
          scope: 'import',
          key: req.headers['idempotency-key'],
          body: { file: bytes, dry_run: dryRun },
        },
        async (tx) => ({ status: 200, body: await importFile(tx, user.id, bytes, dryRun, signal) }),
      );
      if (!out.replayed && !out.body.errors.length)
        measured(dataFileFormat(bytes), out.body.imported + out.body.skipped);
      // only a 200 answer is ever stored and replayed
      return reply.code(out.status as 200).send(out.body);
    },
  );
}

/** POST /api/import/bills: a bill read into a preview. */
function registerBillReading(app: TypedApp, service: BillImportService) {
  app.post(
    '/api/import/bills',
    {
      schema: {
        summary: 'Read a bill (multipart field `file`) into a preview to check and correct before commit',
        description:
          `${FORMATS_TEXT} Meaning: 收/支 不计收支 and internal moves (余额宝, 零钱通, 零钱充值/提现, card to credit card or 花呗) become ` +
          '`transfer` rows between the accounts the payment methods map to, or `skip` with reason `no_account` while ' +
          'a side has no account; ' +
          'closed and failed trades (交易关闭, 支付失败) are `skip` with reason `closed`; refunds (`refund: true`) are ' +
          'linked to the purchase of the same bill ' +
          '(`refund_of_row`) or of your books (`refund_of`) and take its category and account; a payment method maps ' +
          'to an account by your remembered ' +
          'mapping, an account of that name or the same card number tail, else your default account. Categories: ' +
          'your import rules ' +
          '(first match wins), then the suggestion from your history. A row whose source and external id are already ' +
          'in your books (or earlier in ' +
          'the file) is `duplicate`; a row without an id is a duplicate while your books already hold as many ' +
          'transactions with its date, kind, ' +
          `amount, category and note. The answer lists the first ${PREVIEW_ROWS} rows (\`total\` all of them; GET the preview for the others). ` +
          `At most ${IMPORT_MAX_BYTES / 1048576} MiB and ${BILL_MAX_ROWS} rows (else 41301). A file of no known format: 42203 with \`recognised\` ` +
          '(container, encoding, the line that looks like a header): map its columns (POST /api/import/presets) and ' +
          'send it again. ' +
          'Malformed rows: 42203 with `errors: [{row, message}]` (row 1 = the first data row under the header), ' +
          'nothing kept. ' +
          'A QIF file whose every date reads both as month/day and as day/month: 42203, code ambiguous_date_order ' +
          'naming the lines (params rows, count, choices): send it again with `date_order` mdy or dmy (query or ' +
          "multipart field); the answer's `date_order` names the order the dates were read in. " +
          'Text is cleaned: control characters removed, a leading = + - @ (formula) removed. The preview is kept one ' +
          'day.',
        consumes: ['multipart/form-data'],
        querystring: BillQuery,
        response: { 200: Preview },
      },
    },
    async (req, reply) => {
      const user = userOf(req);
      if (!req.isMultipart()) throw Errors.unsupportedMedia('send the file as multipart/form-data, field "file"');
      const signal = clientGone(req, reply);
      let presetId: number | null = req.query.preset_id ?? null;
      const file = await req.file({ limits: { fileSize: IMPORT_MAX_BYTES } });
      if (!file || file.fieldname !== 'file') throw Errors.field('file', 'is required');
      const field = file.fields.preset_id as { value?: unknown } | undefined;
      if (presetId === null && field && typeof field.value === 'string' && field.value !== '') {
        if (!/^[1-9]\d{0,9}$/.test(field.value) || Number(field.value) > 2147483647)
          throw Errors.field('preset_id', 'must be a positive integer');
        presetId = Number(field.value);
      }
      const order = (file.fields.date_order as { value?: unknown } | undefined)?.value ?? req.query.date_order;
      if (order !== undefined && order !== '' && order !== 'mdy' && order !== 'dmy')
        throw Errors.field('date_order', 'must be mdy or dmy');
      const dateOrder = order === 'mdy' || order === 'dmy' ? order : null;
      const bytes = await readUpload(file);
      const measured = app.metrics.importTimer('bill_preview', bytes.length);
      const preview = await service.preview(user.id, bytes, file.filename ?? '', presetId, signal, dateOrder);
      measured(preview.format, preview.summary.total);
      return preview;
    },
  );
}

/** A preview looked at, corrected, committed or thrown away. */
function registerPreviewRoutes(app: TypedApp, service: BillImportService) {
  app.get(
    '/api/import/bills/:id',
    {
      schema: {
        summary: 'A page of a preview, with its summary',
        description: "Rows in file order, `decision` filters. Expired (a day) or another user's: 40401.",
        params: IdParams,
        querystring: PreviewQuery,
        response: { 200: Preview },
      },
    },
    async (req) => service.get(userOf(req).id, req.params.id, req.query),
  );

  app.patch(
    '/api/import/bills/:id/rows',
    {
      schema: {
        summary: 'Correct rows of a preview: row by row and in bulk',
        description:
          '`rows`: edits of single rows (decision import/skip/transfer, kind, account_id, to_account_id, category_id ' +
          "of the row's kind, tags, note). " +
          '`bulk`: one change (`set`: decision, account_id, category_id, tags) of every row chosen by `rows`, ' +
          '`method`, `counterparty` and/or `decision`; ' +
          'with `method` and `account_id` the payment method is remembered as that account for later bills (moves ' +
          'whose both ends are then known ' +
          'become transfers). A category applies to the chosen rows of its kind. A row already in your books cannot ' +
          'be imported again (42201). ' +
          'Answers how many rows changed and the new summary.',
        params: IdParams,
        body: PatchBody,
        response: { 200: PatchResult },
      },
    },
    async (req) => service.patch(userOf(req).id, req.params.id, req.body),
  );

  app.post(
    '/api/import/bills/:id/commit',
    {
      schema: {
        summary: 'Import the rows of a preview as they stand, all or nothing',
        description:
          'Rows with decision `import` become expenses and incomes, `transfer` rows transfers, in one transaction; ' +
          'each carries its source and external id, ' +
          'so a row already in your books by then is skipped. Refunds point to their purchase (`refund_of`). ' +
          'Categories of our own export that do not exist ' +
          'are created, tags by name too. A row lacking an account or category, or naming one that is no longer ' +
          'yours: 42203 with `errors`, nothing written. ' +
          'Payment methods are remembered as the accounts their rows used. Committed twice: 40901.',
        params: IdParams,
        response: { 200: CommitResult },
      },
    },
    async (req) => {
      const measured = app.metrics.importTimer('bill_commit', null);
      const result = await service.commit(userOf(req).id, req.params.id);
      measured('bill', result.imported + result.skipped);
      return result;
    },
  );

  app.delete(
    '/api/import/bills/:id',
    { schema: { summary: 'Discard a preview', params: IdParams, response: { 204: NoContent } } },
    async (req, reply) => {
      await service.discard(userOf(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );
}

/** The import rules: which category a bill's row takes. */
function registerRuleRoutes(app: TypedApp, service: BillImportService) {
  app.get(
    '/api/import-rules',
    { schema: { summary: 'Your import rules, in order', response: { 200: RuleList } } },
    async (req) => service.listRules(userOf(req).id),
  );

  app.post(
    '/api/import-rules',
    {
      schema: {
        summary: 'Add an import rule',
        description:
          '"交易对方 contains 美团 -> Food": `field` counterparty, note, method or any; `match` contains (default), equals ' +
          'or starts_with, ignoring case and full-width forms; ' +
          '`kind` limits it to expenses or incomes; `category_id` one of your categories (of `kind`). Added last, or ' +
          'at `position`. At most 200 (42201).',
        body: RuleCreateBody,
        response: { 201: RuleSchema },
      },
    },
    async (req, reply) => reply.code(201).send(await service.createRule(userOf(req).id, req.body)),
  );

  app.put(
    '/api/import-rules/order',
    {
      schema: {
        summary: 'Reorder the import rules: every one of yours, once, first match first',
        body: RuleOrderBody,
        response: { 200: RuleList },
      },
    },
    async (req) => service.orderRules(userOf(req).id, req.body.ids),
  );

  app.put(
    '/api/import-rules/:id',
    {
      schema: {
        summary: 'Change an import rule',
        params: IdParams,
        body: RuleUpdateBody,
        response: { 200: RuleSchema },
      },
    },
    async (req) => service.updateRule(userOf(req).id, req.params.id, req.body),
  );

  app.delete(
    '/api/import-rules/:id',
    { schema: { summary: 'Delete an import rule', params: IdParams, response: { 204: NoContent } } },
    async (req, reply) => {
      await service.deleteRule(userOf(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );
}

/** The column mappings of the bank files the reader does not know by itself. */
function registerPresetRoutes(app: TypedApp, service: BillImportService) {
  app.get(
    '/api/import/presets',
    { schema: { summary: 'Your saved column mappings', response: { 200: PresetList } } },
    async (req) => service.listPresets(userOf(req).id),
  );

  app.post(
    '/api/import/presets',
    {
      schema: {
        summary: "Save a column mapping for a bank's bill",
        description:
          '`header` the header row of the file (as `recognised.header` of the 42203 answer); a later file with the ' +
          'same header is read with this mapping. ' +
          '`mapping`: `date` column and `date_format`; either `amount` with `sign` (negative_is_expense: a debit ' +
          'card; positive_is_expense: a credit card) ' +
          'or `debit` (money out) and `credit` (money in) columns; optional `description`, `counterparty`, ' +
          '`external_id`. Columns must be in the header (40001). ' +
          '`account_id` the account the bill belongs to. Same name: 40901; at most 50 (42201).',
        body: PresetCreateBody,
        response: { 201: PresetSchema },
      },
    },
    async (req, reply) => reply.code(201).send(await service.createPreset(userOf(req).id, req.body)),
  );

  app.put(
    '/api/import/presets/:id',
    {
      schema: {
        summary: 'Change a column mapping',
        params: IdParams,
        body: PresetUpdateBody,
        response: { 200: PresetSchema },
      },
    },
    async (req) => service.updatePreset(userOf(req).id, req.params.id, req.body),
  );

  app.delete(
    '/api/import/presets/:id',
    { schema: { summary: 'Delete a column mapping', params: IdParams, response: { 204: NoContent } } },
    async (req, reply) => {
      await service.deletePreset(userOf(req).id, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
