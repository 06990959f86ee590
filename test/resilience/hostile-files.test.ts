import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { gifBomb } from '../helpers/images.ts';
import { repeated, SHEET_CLOSE, SHEET_OPEN, SST_OPEN, workbook, zip } from '../helpers/zip.ts';
import { BASE_PORT, call, demoSession, multipart, sleep, startServer, stopServer, type ServerProcess, type Session } from './helpers.ts';

/*
 * A corpus of hostile files, generated here, sent to a real server process: each is refused (or
 * read) without a 5xx, within bounded memory (peak resident memory sampled while it is handled),
 * and the server's temporary folder stays empty.
 */

const PORT = BASE_PORT + 60;
const MB = 1024 * 1024;

const corpus: [string, () => Promise<Buffer>, string][] = [
  ['one 300 MB cell in 0.3 MB', () => workbook({ sheet: () => [SHEET_OPEN, '<row r="1"><c r="A1" t="inlineStr"><is><t>', ...repeated('A', 300 * MB)(), '</t></is></c></row>', SHEET_CLOSE] }), 'bill'],
  ['200 MB of shared strings', () => workbook({ rows: [['a']], sst: () => [SST_OPEN, ...repeated('<si><t>abcdefghijklmnopqrstuvwxyz</t></si>', 5_500_000)(), '</sst>'] }), 'bill'],
  ['2 GiB of empty rows in 4 MB', () => workbook({ sheet: () => [SHEET_OPEN, ...repeated('<row r="1"/>', 170_000_000)(), SHEET_CLOSE] }), 'bill'],
  ['deep XML', async () => workbook({ sheet: SHEET_OPEN + '<x>'.repeat(100_000) + SHEET_CLOSE }), 'bill'],
  ['external entities', () => workbook({ rows: [['a']], sst: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><sst><si><t>&e;</t></si></sst>' }), 'bill'],
  ['billion laughs', () => workbook({ rows: [['a']], sst: `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`).join('')}]><sst><si><t>&j;</t></si></sst>` }), 'bill'],
  ['a truncated zip', async () => (await workbook({ rows: [['a', 'b']] })).subarray(0, 400), 'bill'],
  ['5,000 entries', () => zip(Array.from({ length: 5000 }, (_, i) => ({ name: `xl/f${i}.xml`, data: '<a/>' }))), 'bill'],
  [
    'external links and formulas',
    () =>
      workbook({
        sheet: SHEET_OPEN + '<row r="1"><c r="A1"><f>[1]Sheet1!A1</f><v>1</v></c><c r="B1" t="str"><f>WEBSERVICE("http://127.0.0.1:1/")</f><v>x</v></c></row>' + SHEET_CLOSE,
        extra: [{ name: 'xl/externalLinks/_rels/externalLink1.xml.rels', data: '<Relationships><Relationship Id="rId1" Type="externalLinkPath" Target="file:///etc/passwd" TargetMode="External"/></Relationships>' }],
      }),
    'bill',
  ],
  ['a GIF of 4 frames of 4000 x 4000 in 200 bytes', async () => gifBomb(4000, 4), 'avatar'],
  ['a GIF of 5,000 frames', async () => gifBomb(256, 5000), 'avatar'],
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
    // what the process itself keeps there from its start (tsx's compile cache when it runs the sources)
    atStart = readdirSync(serverTmp, { recursive: true }).map(String).sort();
  });
  after(async () => {
    await stopServer(server);
    if (figures.length) console.log(figures.join('\n'));
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(serverTmp, { recursive: true, force: true });
  });

  const send = (kind: string, name: string, body: Buffer) =>
    call(PORT, kind === 'avatar' ? '/api/me/avatar' : '/api/import/bills', { ...multipart(kind === 'avatar' ? 'a.gif' : 'bill.xlsx', body, s.auth), timeoutMs: 60_000 }).then((res) => {
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
      figures.push(`${name}: ${result.status} ${result.json<{ code: number }>().code}, ${files.get(name)!.length} bytes, +${Math.round((peak - base) / MB)} MB peak, ${ms} ms`);
      assert.ok(peak - base <= 200 * MB, `${name}: memory grew by ${Math.round((peak - base) / MB)} MB`);
      assert.ok(ms < 20_000, `${name}: ${ms} ms`);
      assert.deepEqual(tmpNow(), atStart, `${name}: nothing new in the temporary folder`);
    }
  });

  it('six bombs at once stay within 400 MB', async () => {
    await sleep(500);
    const base = server.rss();
    const names = ['one 300 MB cell in 0.3 MB', '200 MB of shared strings', '2 GiB of empty rows in 4 MB'];
    const { peak } = await peakDuring(server, Promise.all(Array.from({ length: 6 }, (_, i) => send('bill', names[i % 3]!, files.get(names[i % 3]!)!))));
    figures.push(`six at once: +${Math.round((peak - base) / MB)} MB peak`);
    assert.ok(peak - base <= 400 * MB, `six at once: memory grew by ${Math.round((peak - base) / MB)} MB`);
    assert.deepEqual(tmpNow(), atStart);
    // the process still answers
    assert.equal((await call(PORT, '/api/health')).status, 200);
  });
});
