import { Type, type Static } from 'typebox';
import { CalendarDate, CurrencyCode, Id, Nullable } from '../../lib/schemas.ts';

const Confidence = Type.Number({ minimum: 0, maximum: 1 });

export const ReceiptLayout = Type.Union(
  [
    Type.Literal('wechat'),
    Type.Literal('alipay'),
    Type.Literal('meituan'),
    Type.Literal('taobao'),
    Type.Literal('jd'),
    Type.Literal('bank'),
    Type.Literal('invoice'),
    Type.Literal('receipt'),
    Type.Literal('receipt_en'),
    Type.Literal('unknown'),
  ],
  { description: 'the kind of screen or paper the lines were read as' },
);

export const ReceiptDraft = Type.Object({
  amount: Nullable(Type.String({ pattern: '^\\d{1,9}\\.\\d{2}$', description: 'decimal, as printed' })),
  currency: Nullable(CurrencyCode),
  date: Nullable(CalendarDate),
  time: Nullable(Type.String({ pattern: '^\\d{2}:\\d{2}:\\d{2}$', description: 'HH:MM:SS' })),
  counterparty: Nullable(Type.String()),
  payment_method: Nullable(Type.String({ description: 'as printed: 零钱, 花呗, 招商银行信用卡(1234), Visa ****1234' })),
  order_id: Nullable(
    Type.String({
      description: "the payment's 交易单号 / 订单号: a later WeChat or Alipay bill with it is this entry",
    }),
  ),
  source: Nullable(
    Type.Union([Type.Literal('wechat'), Type.Literal('alipay')], { description: 'the bill the order id belongs to' }),
  ),
  category_id: Nullable(Id),
  account_id: Nullable(Id),
  kind: Type.Union([Type.Literal('expense'), Type.Literal('income')]),
  layout: ReceiptLayout,
  confidence: Type.Object({
    amount: Confidence,
    currency: Confidence,
    date: Confidence,
    time: Confidence,
    counterparty: Confidence,
    payment_method: Confidence,
    order_id: Confidence,
    category_id: Confidence,
    account_id: Confidence,
    kind: Confidence,
  }),
});
export type ReceiptDraft = Static<typeof ReceiptDraft>;

export const RecognisedLine = Type.Object({
  text: Type.String(),
  confidence: Confidence,
  box: Type.Object({
    x: Type.Integer(),
    y: Type.Integer(),
    width: Type.Integer(),
    height: Type.Integer(),
  }),
});

export const Recognition = Type.Object({
  draft: ReceiptDraft,
  lines: Type.Array(RecognisedLine, {
    description: 'text lines in reading order; boxes in pixels of the upright image',
  }),
  already_recorded: Type.Union(
    [
      Type.Object({
        transaction_id: Id,
        by: Type.Union([Type.Literal('same_file'), Type.Literal('order_id')]),
      }),
      Type.Null(),
    ],
    { description: 'this file is attached to that entry already, or a bill booked its order id' },
  ),
});
export type Recognition = Static<typeof Recognition>;
