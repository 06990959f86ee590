import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { userOf } from '../../plugins/auth.ts';
import { DuplicatesList, DuplicatesQuery, QuickEntryBody, QuickEntryParse } from './quick-entry.schemas.ts';
import type { QuickEntryService } from './quick-entry.service.ts';

export default async function quickEntryRoutes(
  fastify: FastifyInstance,
  { quickEntry: service }: { quickEntry: QuickEntryService },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/api/quick-entry/parse',
    {
      schema: {
        summary: 'Read one line of text as a record, without saving it',
        description:
          'The line gives the date (今天/昨天/前天/上周五/3月5日, yesterday, last Friday, Mar 5; none: today in your time ' +
          'zone), the amount ' +
          '(Arabic or Chinese numerals with 块/元/毛/角, 1.5万), the kind (收入, 退款, 转账, income, refund, transfer, or what ' +
          'the words ' +
          'mean), the account (by its name, or an alias: 微信, 支付宝, 现金, visa, cash…) and the note (the rest). The ' +
          'category comes from ' +
          'the suggester and is set only when it is confident. Fields it cannot tell are null. Empty text: 40001. ' +
          'The same parser runs in ' +
          'the web client, so a line reads the same offline.',
        body: QuickEntryBody,
        response: { 200: QuickEntryParse },
      },
    },
    async (req) => service.parse(userOf(req).id, req.body.text),
  );

  app.get(
    '/api/transactions/possible-duplicates',
    {
      schema: {
        summary: 'Imported entries a new entry would count a second time',
        description:
          'Asked before saving an entry typed by hand. Answers your entries imported from a bill (they carry the ' +
          "bill's id) of the same " +
          "kind, account, currency and amount (the amount paid: an entry's original amount when it has one) within a " +
          'day of `date`, or ' +
          'within 10 minutes of `time` when given; closest first, at most 5. Nothing is written: saving anyway is up ' +
          'to the person. ' +
          "The other way round, a bill's row that is probably an entry typed by hand is shown in the import preview " +
          'with reason ' +
          '`probably_recorded`. An account that is not yours matches nothing.',
        querystring: DuplicatesQuery,
        response: { 200: DuplicatesList },
      },
    },
    async (req) => service.possibleDuplicates(userOf(req).id, req.query),
  );
}
