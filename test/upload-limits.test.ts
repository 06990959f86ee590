import assert from 'node:assert/strict';
import http from 'node:http';
import type { Socket } from 'node:net';
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { ownTmpDir } from './helpers/tmp.ts';
import { after, before, describe, it } from 'node:test';
import { assertError, build, type Client, createUser, multipart, type TestApp } from './helpers/index.ts';
import { gifBomb } from './helpers/images.ts';
import { repeated, SHEET_CLOSE, SHEET_OPEN, workbook } from './helpers/zip.ts';
import { BANK_HEADER, BANK_ROWS } from './fixtures/bills/generate.ts';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** rows that do not compress like a bomb: one numbered cell, then an empty row */
function* numberedRows(n: number): Iterable<string> {
  for (let i = 0; i < n; i += 1000) {
    let piece = '';
    for (let j = i; j < i + 1000; j++)
      piece += `<row r="${2 * j + 2}"><c r="A${2 * j + 2}"><v>${(j * 7919) % 100_003}</v></c></row><row r="${2 * j + 3}"/>`;
    yield piece;
  }
}
const headerRow = () =>
  `<row r="1">${BANK_HEADER.map((h, i) => `<c r="${String.fromCharCode(65 + i)}1" t="inlineStr"><is><t>${h}</t></is></c>`).join('')}</row>`;
const tmpFiles = () => new Set(readdirSync(tmpdir()));

describe('uploaded files are read under limits, leaving no temporary file', () => {
  ownTmpDir();
  let t: TestApp;
  let as: Client;
  let tmpBefore: Set<string>;
  before(async () => {
    t = await build();
    as = t.as(await createUser(t.db));
    tmpBefore = tmpFiles();
  });
  after(async () => t?.close());

  function assertTmpUnchanged() {
    const added = [...tmpFiles()].filter((f) => !tmpBefore.has(f));
    assert.deepEqual(added, [], 'no new file in the temporary folder');
  }

  const bill = (buf: Buffer, filename = 'bill.xlsx', type = XLSX_TYPE) =>
    as.post('/api/import/bills', multipart(buf, { filename, type }));

  it('an .xls bank statement is recognised as such, then read through a column mapping', async () => {
    const xls = readFileSync(new URL('./fixtures/bills/bank.xls', import.meta.url));
    const res = await bill(xls, 'bank.xls', 'application/vnd.ms-excel');
    assertError(res, 422, 42203);
    const recognised = res.json<{ recognised: { container: string; header: string[] } }>().recognised;
    assert.equal(recognised.container, 'xls');
    assert.deepEqual(recognised.header, BANK_HEADER);
    const preset = await as.post('/api/import/presets', {
      name: '示例银行',
      header: recognised.header,
      mapping: {
        date: '记账日期',
        date_format: 'YYYY-MM-DD',
        amount: '交易金额',
        sign: 'negative_is_expense',
        description: '交易摘要',
        counterparty: '对手信息',
        external_id: '流水号',
      },
    });
    assert.equal(preset.statusCode, 201, preset.body);
    const p = await bill(xls, 'bank.xls', 'application/vnd.ms-excel');
    assert.equal(p.statusCode, 200, p.body);
    const body = p.json<{ format: string; container: string; total: number; rows: { amount: number }[] }>();
    assert.equal(body.format, 'mapped');
    assert.equal(body.container, 'xls');
    assert.equal(body.total, BANK_ROWS.length);
    // tab-separated text under an .xls name is still text
    const tsv = Buffer.from([BANK_HEADER, ...BANK_ROWS].map((r) => r.join('\t')).join('\n'), 'utf8');
    const asText = await bill(tsv, 'bank.xls', 'application/vnd.ms-excel');
    // its tab delimiter is detected, so the saved mapping reads it
    assert.equal(asText.statusCode, 200, asText.body);
    assert.equal(asText.json<{ container: string }>().container, 'csv', asText.body);
    assertTmpUnchanged();
  });

  it('a workbook written worksheet first (as openpyxl and pandas do) is read and leaves no temporary file', async () => {
    const res = await bill(await workbook({ rows: [['示例银行账户交易明细'], BANK_HEADER, ...BANK_ROWS] }));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json<{ total: number }>().total, BANK_ROWS.length);
    assertTmpUnchanged();
  });

  it('zip bombs, hostile XML and damaged zips are refused with their codes, and nothing is left behind', async () => {
    const cases: [string, () => Promise<Buffer>, number, number, RegExp][] = [
      [
        'one huge cell',
        () =>
          workbook({
            sheet: () => [
              SHEET_OPEN,
              '<row r="1"><c r="A1" t="inlineStr"><is><t>',
              ...repeated('A', 100 * 1024 * 1024)(),
              '</t></is></c></row>',
              SHEET_CLOSE,
            ],
          }),
        422,
        42203,
        /expands \d+ times/,
      ],
      [
        'an empty-rows bomb',
        () => workbook({ sheet: () => [SHEET_OPEN, ...repeated('<row r="1"/>', 20_000_000)(), SHEET_CLOSE] }),
        422,
        42203,
        /expands/,
      ],
      [
        'rows over the limit, empty ones included',
        () => workbook({ sheet: () => [SHEET_OPEN, headerRow(), ...numberedRows(60_000), SHEET_CLOSE] }),
        413,
        41301,
        /more than 100000 rows/,
      ],
      [
        'external entities',
        () =>
          workbook({
            rows: [['a']],
            sst:
              '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM ' +
              '"file:///etc/passwd">]><sst><si><t>&e;</t></si></sst>',
          }),
        422,
        42203,
        /document type/,
      ],
      [
        'a truncated zip',
        async () => (await workbook({ rows: [['a']] })).subarray(0, 300),
        422,
        42203,
        /not a complete zip/,
      ],
    ];
    for (const [what, make, status, code, message] of cases) {
      const res = await bill(await make());
      assertError(res, status, code);
      assert.match(res.json<{ message: string }>().message, message, what);
      assertTmpUnchanged();
    }
  });

  it('uploads on one keep-alive connection leave no listener behind on its socket', async () => {
    const sockets: Socket[] = [];
    const onConnection = (socket: Socket) => sockets.push(socket);
    t.app.server.on('connection', onConnection);
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const token = await t.tokenFor(await createUser(t.db));
    const upload = multipart(Buffer.from(`${BANK_HEADER.join(',')}\n`), { filename: 'a.csv', type: 'text/csv' });
    try {
      let listeners = -1;
      for (let i = 0; i < 15; i++) {
        const status = await new Promise<number>((resolve, reject) => {
          const req = http.request(
            {
              agent,
              port,
              host: '127.0.0.1',
              method: 'POST',
              path: '/api/import/bills',
              headers: { ...upload.headers, authorization: `Bearer ${token}` },
            },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            },
          );
          req.on('error', reject);
          req.end(upload.payload);
        });
        assert.ok(status > 0 && status < 500, `upload ${i}: ${status}`);
        if (i === 2) listeners = sockets[0]!.listenerCount('close');
      }
      assert.equal(sockets.length, 1, 'every upload went over one connection');
      assert.equal(sockets[0]!.listenerCount('close'), listeners, 'no listener added per upload');
      assert.deepEqual(
        warnings.filter((w) => w === 'MaxListenersExceededWarning'),
        [],
      );
    } finally {
      agent.destroy();
      process.off('warning', onWarning);
      t.app.server.off('connection', onConnection);
    }
  });

  it('an avatar that decodes to more pixels than allowed, or of too many frames, is refused before decoding', async () => {
    for (const gif of [gifBomb(4000, 4), gifBomb(64, 500)]) {
      const res = await as.post('/api/me/avatar', multipart(gif, { filename: 'a.gif', type: 'image/gif' }));
      assertError(res, 413, 41301);
    }
    const ok = await as.post('/api/me/avatar', multipart(gifBomb(64, 3), { filename: 'a.gif', type: 'image/gif' }));
    assert.equal(ok.statusCode, 200, ok.body);
  });
});
