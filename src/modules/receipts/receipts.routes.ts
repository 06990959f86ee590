import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Errors } from '../../lib/errors.ts';
import { userOf } from '../../plugins/auth.ts';
import { readUpload } from '../../plugins/uploads.ts';
import { ATTACHMENT_MAX_BYTES } from '../attachments/index.ts';
import { Recognition } from './receipts.schemas.ts';
import type { ReceiptService } from './receipts.service.ts';

export default async function receiptsRoutes(
  fastify: FastifyInstance,
  { receipts: service }: { receipts: ReceiptService },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/api/receipts/recognize',
    {
      schema: {
        tags: ['Transactions'],
        summary: 'Read a receipt, a payment screenshot or an e-invoice PDF (multipart field `file`) into a draft entry',
        description:
          'Read on this server (PaddleOCR models, nothing is sent anywhere); nothing is saved: the draft is for the ' +
          'add form, where ' +
          'the person confirms it. A PDF is read from its text layer. `draft`: amount (decimal string), currency, ' +
          'date, time, counterparty, ' +
          'payment_method, order_id (with its `source` bill), category_id (the suggester, with the merchant ' +
          'lexicon), account_id (the ' +
          'payment method as your bill imports map it, else your default account), kind, and a `confidence` from 0 ' +
          'to 1 for each. ' +
          '`already_recorded`: this very file is attached to an entry of yours, or a bill booked its order id. ' +
          `At most ${ATTACHMENT_MAX_BYTES / 1048576} MiB (41301); an image with too many pixels: 41301; not an image or PDF: 41501; ` +
          'unreadable: 42201. One recognition runs at a time (on every core) and a few wait; beyond them 503 with Retry-After. Off on ' +
          'this server ' +
          '(RECEIPTS_OCR=off): 40401.',
        consumes: ['multipart/form-data'],
        response: { 200: Recognition },
      },
    },
    async (req) => {
      const user = userOf(req);
      if (!service.enabled()) throw Errors.featureOff('receipt recognition is off on this server');
      if (!req.isMultipart()) throw Errors.unsupportedMedia('send the image as multipart/form-data, field "file"');
      const file = await req.file({ limits: { fileSize: ATTACHMENT_MAX_BYTES } });
      if (!file || file.fieldname !== 'file') throw Errors.field('file', 'is required');
      const bytes = await readUpload(file);
      return service.recognize(user.id, bytes);
    },
  );
}
