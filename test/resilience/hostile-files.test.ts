import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { jpegWithExif, pdfOfPages, pdfWithJavaScript, pixelFloodPng } from '../helpers/hostile-media.ts';
import { gifBomb } from '../helpers/images.ts';
import { repeated, SHEET_CLOSE, SHEET_OPEN, SST_OPEN, workbook, zip } from '../helpers/zip.ts';
import {
  BASE_PORT,
  call,
  demoSession,
  multipart,
  sleep,
  startServer,
  stopServer,
  type ServerProcess,
  type Session,
} from './helpers.ts';

/*
 * A corpus of hostile files, generated here, sent to a real server process: each is refused (or
 * read) without a 5xx, within bounded memory (peak resident memory sampled while it is handled),
 * and the server's temporary folder stays empty.
 */

const PORT = BASE_PORT + 60;
const MB = 1024 * 1024;
const SVG =
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><script>alert(1)</script></svg>';
const HTML = '<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>';

/** A camt.053 statement whose one entry holds `inner`, after the document type `doctype`. */
function camt(doctype: string, inner: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>${doctype}` +
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>' +
    '<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id></Acct><Ntry><Amt Ccy="EUR">1.00</Amt>' +
    `<CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2024-03-01</Dt></BookgDt>${inner}</Ntry></Stmt></BkToCstmrStmt></Document>`
  );
}
const XXE_DOCTYPE = '<!DOCTYPE Document [<!ENTITY e SYSTEM "file:///etc/passwd">]>';
const LAUGHS_DOCTYPE = `<!DOCTYPE Document [<!ENTITY a "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`).join('')}]>`;
/** what the bank-statement files among them must be answered with: refused as unreadable, not too large */
const XML_REFUSED = /^camt /;

const corpus: [string, () => Promise<Buffer>, string][] = [
  [
    'one 300 MB cell in 0.3 MB',
    () =>
      workbook({
        sheet: () => [
          SHEET_OPEN,
          '<row r="1"><c r="A1" t="inlineStr"><is><t>',
          ...repeated('A', 300 * MB)(),
          '</t></is></c></row>',
          SHEET_CLOSE,
        ],
      }),
    'bill',
  ],
  [
    '200 MB of shared strings',
    () =>
      workbook({
        rows: [['a']],
        sst: () => [SST_OPEN, ...repeated('<si><t>abcdefghijklmnopqrstuvwxyz</t></si>', 5_500_000)(), '</sst>'],
      }),
    'bill',
  ],
  [
    '2 GiB of empty rows in 4 MB',
    () => workbook({ sheet: () => [SHEET_OPEN, ...repeated('<row r="1"/>', 170_000_000)(), SHEET_CLOSE] }),
    'bill',
  ],
  ['deep XML', async () => workbook({ sheet: SHEET_OPEN + '<x>'.repeat(100_000) + SHEET_CLOSE }), 'bill'],
  [
    'external entities',
    () =>
      workbook({
        rows: [['a']],
        sst: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><sst><si><t>&e;</t></si></sst>',
      }),
    'bill',
  ],
  [
    'billion laughs',
    () =>
      workbook({
        rows: [['a']],
        sst: `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`).join('')}]><sst><si><t>&j;</t></si></sst>`,
      }),
    'bill',
  ],
  ['a truncated zip', async () => (await workbook({ rows: [['a', 'b']] })).subarray(0, 400), 'bill'],
  [
    '5,000 entries',
    () => zip(Array.from({ length: 5000 }, (_, i) => ({ name: `xl/f${i}.xml`, data: '<a/>' }))),
    'bill',
  ],
  [
    'external links and formulas',
    () =>
      workbook({
        sheet:
          SHEET_OPEN +
          '<row r="1"><c r="A1"><f>[1]Sheet1!A1</f><v>1</v></c><c r="B1" ' +
          't="str"><f>WEBSERVICE("http://127.0.0.1:1/")</f><v>x</v></c></row>' +
          SHEET_CLOSE,
        extra: [
          {
            name: 'xl/externalLinks/_rels/externalLink1.xml.rels',
            data:
              '<Relationships><Relationship Id="rId1" Type="externalLinkPath" Target="file:///etc/passwd" ' +
              'TargetMode="External"/></Relationships>',
          },
        ],
      }),
    'bill',
  ],
  ['camt with an external entity', async () => Buffer.from(camt(XXE_DOCTYPE, '<Ustrd>&e;</Ustrd>')), 'bill'],
  ['camt with a billion laughs', async () => Buffer.from(camt(LAUGHS_DOCTYPE, '<Ustrd>&j;</Ustrd>')), 'bill'],
  [
    'camt nested 10,000 levels deep',
    async () => Buffer.from(camt('', '<a>'.repeat(10_000) + '</a>'.repeat(10_000))),
    'bill',
  ],
  // the upload limit (20 MiB) keeps a gigabyte out: the longest text node that can arrive
  ['camt with a 19 MB text node', async () => Buffer.from(camt('', `<Ustrd>${'A'.repeat(19 * MB)}</Ustrd>`)), 'bill'],
  ['a GIF of 4 frames of 4000 x 4000 in 200 bytes', async () => gifBomb(4000, 4), 'avatar'],
  ['a GIF of 5,000 frames', async () => gifBomb(256, 5000), 'avatar'],
  // receipts and attachments: each sent to be recognised and to be attached
  ...(
    [
      ['a PNG of 50,000 x 50,000 in a few KB', async () => pixelFloodPng(50_000), 'flood.png'],
      ['a truncated JPEG', async () => (await jpegWithExif(0.1)).subarray(0, 60_000), 'cut.jpg'],
      ['an SVG named .png', async () => Buffer.from(SVG), 'receipt.png'],
      ['an HTML page named .png', async () => Buffer.from(HTML), 'receipt.png'],
      [
        'a zip inside a JPEG',
        async () => Buffer.concat([await jpegWithExif(0), await zip([{ name: 'a.txt', data: 'x' }])]),
        'p.jpg',
      ],
      ['a PDF with JavaScript', async () => pdfWithJavaScript(), 'invoice.pdf'],
      ['a PDF of 10,000 pages', async () => pdfOfPages(10_000), 'invoice.pdf'],
      ['an image with a 10 MB EXIF block', () => jpegWithExif(10), 'photo.jpg'],
    ] as const
  ).flatMap(([name, make, file]) => [
    [`${name} to recognise`, make, `receipt:${file}`] as [string, () => Promise<Buffer>, string],
    [`${name} to attach`, make, `attachment:${file}`] as [string, () => Promise<Buffer>, string],
  ]),
];

function peakDuring<T>(server: ServerProcess, work: Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = server.rss();
  const timer = setInterval(() => (peak = Math.max(peak, server.rss())), 10);
  return work.then(
    (result) => {
      clearInterval(timer);
      return { result, peak: Math.max(peak, server.rss()) };
    },
    (err) => {
      clearInterval(timer);
      throw err;
    },
  );
}

describe('hostile files', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-hostile-'));
  const serverTmp = mkdtempSync(path.join(tmpdir(), 'ledger-hostile-tmp-'));
  const files = new Map<string, Buffer>();
  let server: ServerProcess;
  let s: Session;
  const figures: string[] = [];
  let atStart: string[] = [];
  const tmpNow = () => readdirSync(serverTmp, { recursive: true }).map(String).sort();
  before(async () => {
    for (const [name, make] of corpus) files.set(name, await make());
    server = await startServer({ port: PORT, dataDir, env: { TMPDIR: serverTmp } });
    s = await demoSession(PORT);
    const created = await call(PORT, '/api/transactions', {
      method: 'POST',
      headers: { ...s.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'expense', amount: '12.50', category_id: s.categoryId, date: '2026-01-05' }),
    });
    assert.equal(created.status, 201, created.body);
    transactionId = created.json<{ id: number }>().id;
    // what the process itself keeps there from its start (tsx's compile cache when it runs the sources)
    atStart = readdirSync(serverTmp, { recursive: true }).map(String).sort();
  });
  after(async () => {
    await stopServer(server);
    if (figures.length) console.log(figures.join('\n'));
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(serverTmp, { recursive: true, force: true });
  });

  let transactionId = 0;
  const target = (kind: string): [string, string] => {
    const [what, file] = kind.split(':');
    if (what === 'receipt') return ['/api/receipts/recognize', file!];
    if (what === 'attachment') return [`/api/transactions/${transactionId}/attachments`, file!];
    return kind === 'avatar' ? ['/api/me/avatar', 'a.gif'] : ['/api/import/bills', 'bill.xlsx'];
  };
  const send = (kind: string, name: string, body: Buffer) =>
    call(PORT, target(kind)[0], {
      ...multipart(target(kind)[1], body, s.auth),
      timeoutMs: 60_000,
    }).then((res) => {
      assert.ok(res.status < 500, `${name}: ${res.status} ${res.body}`);
      assert.match(res.body, /"code":\d{5}/, name);
      return res;
    });

  it('each file is refused within 200 MB of memory, in seconds, and leaves no temporary file', async () => {
    for (const [name, , kind] of corpus) {
      await sleep(200);
      const base = server.rss();
      const started = Date.now();
      const { result, peak } = await peakDuring(server, send(kind, name, files.get(name)!));
      const ms = Date.now() - started;
      figures.push(
        `${name}: ${result.status} ${result.json<{ code: number }>().code}, ${files.get(name)!.length} bytes, +${Math.round((peak - base) / MB)} MB peak, ${ms} ms`,
      );
      assert.ok(peak - base <= 200 * MB, `${name}: memory grew by ${Math.round((peak - base) / MB)} MB`);
      if (XML_REFUSED.test(name)) assert.equal(result.json<{ code: number }>().code, 42203, name);
      assert.ok(ms < 20_000, `${name}: ${ms} ms`);
      assert.deepEqual(tmpNow(), atStart, `${name}: nothing new in the temporary folder`);
    }
  });

  it('six bombs at once stay within 400 MB', async () => {
    await sleep(500);
    const base = server.rss();
    const names = ['one 300 MB cell in 0.3 MB', '200 MB of shared strings', '2 GiB of empty rows in 4 MB'];
    const { peak } = await peakDuring(
      server,
      Promise.all(Array.from({ length: 6 }, (_, i) => send('bill', names[i % 3]!, files.get(names[i % 3]!)!))),
    );
    figures.push(`six at once: +${Math.round((peak - base) / MB)} MB peak`);
    assert.ok(peak - base <= 400 * MB, `six at once: memory grew by ${Math.round((peak - base) / MB)} MB`);
    assert.deepEqual(tmpNow(), atStart);
    // the process still answers
    assert.equal((await call(PORT, '/api/health')).status, 200);
  });
});
