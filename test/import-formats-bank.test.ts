import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { build, type TestApp } from './helpers/index.ts';
import { importTwice, refused, type FormatCase } from './helpers/import-formats.ts';

/*
 * The bank standards through the whole import: each fixture (written by hand from the OFX 2.2, QIF,
 * ISO 20022 camt and SWIFT MT940 descriptions, its figures added up by hand below) previewed,
 * committed and uploaded again; and the refusals, each naming its row and reason.
 */

const file = (name: string) => readFileSync(new URL(`./fixtures/imports/${name}`, import.meta.url));

const cases: Omit<FormatCase, 'body'>[] = [
  {
    // checking: -45.67, +2500.00, -300.00 to the card (one transfer, the card's +300.00 its mirror), -12.50 EUR
    // (no EUR account: waits); card: -89.99, -15.00
    name: 'OFX 1.x (QFX) with a bank and a credit-card statement',
    file: 'bank-1x.qfx',
    format: 'ofx',
    accounts: [
      { name: 'Checking 6789', currency: 'USD' },
      { name: 'Visa 1234', currency: 'USD' },
    ],
    rows: { import: 4, transfer: 1, skip: 1 },
    booked: { expense: 4567 + 8999 + 1500, income: 250000, transfer: 30000 },
  },
  {
    name: 'OFX 2.x (XML) in yuan',
    file: 'bank-2x.ofx',
    format: 'ofx',
    accounts: [{ name: '工资卡 7890', currency: 'CNY' }],
    rows: { import: 4, transfer: 0, skip: 0 },
    booked: { expense: 12800 + 3550 + 6800, income: 500000, transfer: 0 },
  },
  {
    // rent 1,234.56; to savings 100.00 (once); split 60.00 + 20.00; salary 3,000.00; interest 1.23; dining 42.00
    name: 'QIF with three accounts, a split and a transfer',
    file: 'accounts.qif',
    format: 'qif',
    accounts: [
      { name: 'Checking', currency: 'CNY' },
      { name: 'Savings', currency: 'CNY' },
      { name: 'Visa', currency: 'CNY' },
    ],
    rows: { import: 6, transfer: 1, skip: 0 },
    booked: { expense: 123456 + 6000 + 2000 + 4200, income: 300000 + 123, transfer: 10000 },
  },
  {
    name: 'QIF written day first',
    file: 'day-first.qif',
    format: 'qif',
    accounts: [{ name: 'Bank', currency: 'CNY' }],
    rows: { import: 2, transfer: 0, skip: 0 },
    booked: { expense: 1990 + 500, income: 0, transfer: 0 },
  },
  {
    // -250.00; batch +1495.00 = 1000.00 + 500.00 - 5.00 charges; 200.00 to the savings account (once); -12.34;
    // the pending -99.00 is not booked
    name: 'camt.053.001.02 with two statements, a batch and a transfer',
    file: 'statement.camt053.xml',
    format: 'camt',
    accounts: [
      { name: 'Girokonto 3000', currency: 'EUR' },
      { name: 'Tagesgeld 4931', currency: 'EUR' },
    ],
    rows: { import: 5, transfer: 1, skip: 0 },
    booked: { expense: 25000 + 500 + 1234, income: 100000 + 50000, transfer: 20000 },
  },
  {
    name: 'camt.052.001.08 intraday report',
    file: 'report.camt052.xml',
    format: 'camt',
    accounts: [{ name: 'Girokonto 3000', currency: 'EUR' }],
    rows: { import: 2, transfer: 0, skip: 0 },
    booked: { expense: 1999, income: 10000, transfer: 0 },
  },
  {
    // -250.00, +1500.00, 100.00 to the other account (once), -20.00; both statements balance
    name: 'MT940 with two statements and German :86: subfields',
    file: 'german.sta',
    format: 'mt940',
    accounts: [
      { name: 'Girokonto 3000', currency: 'EUR' },
      { name: 'Tagesgeld 4931', currency: 'EUR' },
    ],
    rows: { import: 3, transfer: 1, skip: 0 },
    booked: { expense: 25000 + 2000, income: 150000, transfer: 10000 },
  },
];

describe('bank statement formats', () => {
  let t: TestApp;
  before(async () => {
    t = await build();
  });
  after(async () => t.close());

  for (const c of cases) {
    it(`${c.name}: rows, sums, a second upload books nothing`, () => importTwice(t, { ...c, body: file(c.file) }));
  }

  const refusals: { name: string; file: string; body: (b: Buffer) => Buffer; row: number; code: string }[] = [
    {
      name: 'a QIF whose dates read both ways',
      file: 'ambiguous.qif',
      body: (b) => b,
      row: 2,
      code: 'ambiguous_date_order',
    },
    {
      name: 'an MT940 statement whose entries miss its closing balance',
      file: 'german.sta',
      body: (b) =>
        Buffer.from(b.toString('latin1').replace(':62F:C240310EUR2150,00', ':62F:C240310EUR2151,00'), 'latin1'),
      row: 13,
      code: 'balance_mismatch',
    },
    {
      name: 'an OFX entry without a date',
      file: 'bank-2x.ofx',
      body: (b) =>
        Buffer.from(b.toString().replace('<DTPOSTED>20240311</DTPOSTED>', '<DTPOSTED>2024-13-45</DTPOSTED>')),
      row: 41,
      code: 'bad_date',
    },
    {
      name: 'a camt entry of no amount',
      file: 'report.camt052.xml',
      body: (b) =>
        Buffer.from(
          b
            .toString()
            .replace(
              '<Amt Ccy="EUR">100.00</Amt>\n        <CdtDbtInd>',
              '<Amt Ccy="EUR">1OO</Amt>\n        <CdtDbtInd>',
            ),
        ),
      row: 2,
      code: 'bad_amount',
    },
  ];
  for (const r of refusals) {
    it(`refuses ${r.name}, naming the row and the reason, booking nothing`, () =>
      refused(t, r.file, r.body(file(r.file)), r.row, r.code));
  }
});
