import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { ownTmpDir } from '../helpers/tmp.ts';
import { describe, it } from 'node:test';
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from '../../src/config.ts';
import { AppError } from '../../src/lib/errors.ts';
import { readBill } from '../../src/modules/import/bill.parse.ts';
import type { SeedRow } from '../../src/modules/import/import.rows.ts';
import { openZip, xlsxRows, XmlTokenizer, type SheetRow } from '../../src/modules/import/bill.xlsx.ts';
import { repeated, SHEET_CLOSE, SHEET_OPEN, SST_OPEN, workbook, zip } from '../helpers/zip.ts';

const BANK_HEADER = ['交易日期', '摘要', '金额', '余额'];
const BANK_ROWS = [
  ['2024-03-01', '工资', '8000.00', '9000.00'],
  ['2024-03-02', '超市 & 便利店', '-58.50', '8941.50'],
];

async function rowsOf(buf: Buffer, limits?: UploadLimits, signal?: AbortSignal): Promise<SheetRow[]> {
  const out: SheetRow[] = [];
  for await (const r of xlsxRows(buf, { limits, signal })) out.push(r);
  return out;
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof AppError, `expected an AppError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a refusal');
}

function tmpFiles(): Set<string> {
  return new Set(readdirSync(tmpdir()));
}

function assertNoNewTmp(before: Set<string>) {
  const added = [...tmpFiles()].filter((f) => !before.has(f));
  assert.deepEqual(added, [], 'no temporary file is left behind');
}

const small = (over: Partial<UploadLimits>): UploadLimits => ({ ...DEFAULT_UPLOAD_LIMITS, ...over });

describe('XLSX upload guard', () => {
  ownTmpDir();
  it('an ordinary workbook with its worksheet before its shared strings is read, with no temporary file', async () => {
    const buf = await workbook({ rows: [BANK_HEADER, ...BANK_ROWS] });
    const before = tmpFiles();
    const rows: SeedRow[] = [];
    const preset = {
      id: 1,
      name: 'bank',
      header: BANK_HEADER,
      mapping: { date: '交易日期', amount: '金额', note: '摘要', date_format: 'YYYY-MM-DD' as const },
      accountId: null,
    };
    const out = await readBill(buf, { presets: [preset] as never, onRows: async (r) => void rows.push(...r) });
    assert.equal(out.detected.container, 'xlsx');
    assert.equal(out.rows, 2);
    assertNoNewTmp(before);
    const cells = await rowsOf(buf);
    assert.deepEqual(
      cells.map((r) => r.cells),
      [BANK_HEADER, ...BANK_ROWS],
    );
    assertNoNewTmp(before);
  });

  it('reads inline strings, formulas by their result, booleans, dates by their style, rich text without its phonetic guide', async () => {
    const styles = `<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy/mm/dd\\ hh:mm"/></numFmts><cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/></cellXfs></styleSheet>`;
    const relsWithStyles = `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="/xl/worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/externalLink" Target="file:///etc/passwd" TargetMode="External"/></Relationships>`;
    const sheet =
      SHEET_OPEN +
      '<row r="1"><c r="A1" t="inlineStr"><is><t>a &amp; b &#x4E2D;</t></is></c><c r="C1" t="s"><v>0</v></c><c ' +
      'r="D1"><f>SUM(1,2)</f><v>3</v></c><c r="E1" t="b"><v>1</v></c></row>' +
      '<row r="2"/>' +
      '<row r="3"><c r="A3" s="1"><v>45366</v></c><c r="B3" s="2"><v>45366.75</v></c><c r="C3" ' +
      't="str"><f>"x"</f><v>x</v></c><c r="D3" t="e"><v>#DIV/0!</v></c><c r="E3"><v>12.5</v></c></row>' +
      SHEET_CLOSE;
    const sst = `${SST_OPEN}<si><r><t>上</t></r><r><t xml:space="preserve">海 </t></r><rPh sb="0" eb="1"><t>シャン</t></rPh></si></sst>`;
    const buf = await zip([
      {
        name: '_rels/.rels',
        data: `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      },
      { name: 'xl/worksheets/sheet1.xml', data: sheet },
      {
        name: 'xl/workbook.xml',
        data: `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><workbookPr/><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      },
      { name: 'xl/_rels/workbook.xml.rels', data: relsWithStyles },
      { name: 'xl/styles.xml', data: styles },
      { name: 'xl/sharedStrings.xml', data: sst },
    ]);
    const rows = await rowsOf(buf);
    assert.deepEqual(rows, [
      { line: 1, cells: ['a & b 中', '', '上海 ', '3', 'TRUE'] },
      { line: 2, cells: ['2024-03-15', '2024-03-15 18:00:00', 'x', '', '12.5'] },
    ]);
  });

  it('the XML tokenizer gives the same events however the text is cut into chunks', () => {
    const xml =
      '<?xml version="1.0"?><!-- a > b --><a x="1>2" y=\'q\'><b>t &amp; &#20013; <![CDATA[<raw>]]></b><c/></a>';
    const run = (chunks: string[]) => {
      const events: string[] = [];
      let text = false;
      const t = new XmlTokenizer(
        {
          open: (n, a, s) => {
            events.push(`<${n}${a}${s ? '/' : ''}>`);
            text = n === 'b';
          },
          close: (n) => {
            events.push(`</${n}>`);
            text = false;
          },
          text: (s) => {
            if (events.at(-1)?.startsWith('T:')) events[events.length - 1] += s;
            else events.push(`T:${s}`);
          },
          wantText: () => text,
        },
        8,
      );
      for (const c of chunks) t.write(c);
      return events.join('|');
    };
    const whole = run([xml]);
    assert.equal(whole, '<a x="1>2" y=\'q\'>|<b>|T:t & 中 <raw>|</b>|<c/>|</c>|</a>');
    for (let i = 1; i < xml.length; i++)
      for (const j of [i + 1, i + 7])
        assert.equal(run([xml.slice(0, i), xml.slice(i, j), xml.slice(j)]), whole, `cut at ${i}, ${j}`);
  });

  it('one huge cell (a zip bomb) is refused from the directory, before inflating', async () => {
    const buf = await workbook({
      sheet: () => [
        SHEET_OPEN,
        '<row r="1"><c r="A1" t="inlineStr"><is><t>',
        ...repeated('A', 300 * 1024 * 1024)(),
        '</t></is></c></row>',
        SHEET_CLOSE,
      ],
    });
    assert.ok(buf.length < 1024 * 1024);
    const err = await refusal(rowsOf(buf));
    assert.equal(err.code, 42203);
    assert.match(err.message, /expands \d+ times/);
  });

  it('a bomb that lies about its sizes is stopped by counting what is inflated', async () => {
    const buf = await workbook({
      sheet: () => [
        SHEET_OPEN,
        '<row r="1"><c r="A1" t="inlineStr"><is><t>',
        ...repeated('A', 40 * 1024 * 1024)(),
        '</t></is></c></row>',
        SHEET_CLOSE,
      ],
      sheetSize: 1000,
    });
    const err = await refusal(rowsOf(buf));
    assert.equal(err.code, 42203);
    // within its declared size but past the limit
    const honest = await workbook({
      sheet: () => [SHEET_OPEN, ...repeated('<row r="1"><c r="A1"><v>1</v></c></row>', 200_000)(), SHEET_CLOSE],
    });
    const err2 = await refusal(rowsOf(honest, small({ zipMaxEntryBytes: 1024 * 1024, zipMaxRatio: 10_000 })));
    assert.equal(err2.code, 41301);
  });

  it('huge shared strings: over the count, over the characters, a string over the cell limit', async () => {
    const many = await workbook({
      rows: [['x']],
      sst: () => [SST_OPEN, ...repeated('<si><t>abc</t></si>', 600_000)(), '</sst>'],
    });
    assert.equal((await refusal(rowsOf(many, small({ zipMaxRatio: 10_000 })))).code, 41301);
    const chars = await workbook({
      rows: [['x']],
      sst: () => [SST_OPEN, ...repeated(`<si><t>${'字'.repeat(1000)}</t></si>`, 30_000)(), '</sst>'],
    });
    const e = await refusal(
      rowsOf(
        chars,
        small({ zipMaxRatio: 10_000, zipMaxEntryBytes: 256 * 1024 * 1024, zipMaxBytes: 256 * 1024 * 1024 }),
      ),
    );
    assert.equal(e.code, 41301);
    assert.match(e.message, /shared strings hold more than/);
    const long = await workbook({
      rows: [['x']],
      sst: () => [SST_OPEN, '<si><t>', ...repeated('b', 40_000)(), '</t></si></sst>'],
    });
    assert.match((await refusal(rowsOf(long))).message, /longer than 32768/);
  });

  it('an empty-rows bomb is refused by the row count, empty rows included', async () => {
    const buf = await workbook({ sheet: () => [SHEET_OPEN, ...repeated('<row r="1"/>', 150_000)(), SHEET_CLOSE] });
    const started = Date.now();
    const err = await refusal(rowsOf(buf, small({ zipMaxRatio: 10_000 })));
    assert.equal(err.code, 41301);
    assert.match(err.message, /more than 100000 rows/);
    assert.ok(Date.now() - started < 5000);
    // the probe's shape (2 GiB of empty rows in 4 MB) is a bomb by its directory alone
    const big = await workbook({ sheet: () => [SHEET_OPEN, ...repeated('<row r="1"/>', 20_000_000)(), SHEET_CLOSE] });
    assert.equal((await refusal(rowsOf(big))).code, 42203);
  });

  it('too many columns and a too-long inline cell are 41301', async () => {
    const wide = await workbook({
      sheet: SHEET_OPEN + '<row r="1"><c r="IW1" t="inlineStr"><is><t>x</t></is></c></row>' + SHEET_CLOSE,
    });
    assert.match((await refusal(rowsOf(wide))).message, /more than 256 columns/);
    const long = await workbook({
      sheet:
        SHEET_OPEN + `<row r="1"><c r="A1" t="inlineStr"><is><t>${'y'.repeat(40_000)}</t></is></c></row>` + SHEET_CLOSE,
    });
    assert.equal((await refusal(rowsOf(long))).code, 41301);
  });

  it('DTDs (external entities, billion laughs) and deep nesting are refused, nothing expanded', async () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&e;</t></si></sst>`;
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><sst><si><t>&lol2;</t></si></sst>`;
    for (const sst of [xxe, laughs]) {
      const err = await refusal(rowsOf(await workbook({ rows: [['a']], sst })));
      assert.equal(err.code, 42203);
      assert.match(err.message, /document type/);
    }
    const deep =
      SHEET_OPEN +
      '<row r="1"><c r="A1"><v>1</v></c></row>' +
      '<x>'.repeat(10_000) +
      '</x>'.repeat(10_000) +
      SHEET_CLOSE;
    const err = await refusal(rowsOf(await workbook({ sheet: deep })));
    assert.equal(err.code, 42203);
    assert.match(err.message, /nested deeper/);
  });

  it('a truncated zip, a zip of thousands of entries and a zip without a workbook are 42203', async () => {
    const good = await workbook({ rows: [['a']] });
    for (const cut of [good.subarray(0, good.length - 30), good.subarray(0, 100)])
      assert.equal((await refusal(rowsOf(Buffer.from(cut)))).code, 42203);
    const many = await zip(Array.from({ length: 5000 }, (_, i) => ({ name: `f${i}.xml`, data: '<a/>' })));
    const err = await refusal(openZip(many));
    assert.equal(err.code, 42203);
    assert.match(err.message, /5000 entries/);
    assert.equal((await refusal(rowsOf(await zip([{ name: 'a.txt', data: 'hello' }])))).code, 42203);
  });

  it('the total declared size of all entries is limited', async () => {
    const parts = Array.from({ length: 4 }, (_, i) => ({
      name: `xl/media/m${i}.bin`,
      data: Buffer.alloc(400 * 1024, i),
      store: true,
    }));
    const err = await refusal(
      rowsOf(await workbook({ rows: [['a']], extra: parts }), small({ zipMaxBytes: 1024 * 1024 })),
    );
    assert.equal(err.code, 41301);
  });

  it('an aborted read stops', async () => {
    const buf = await workbook({ rows: Array.from({ length: 2000 }, (_, i) => [`r${i}`, 'x']) });
    const ctl = new AbortController();
    const seen: SheetRow[] = [];
    const err = await refusal(
      (async () => {
        for await (const r of xlsxRows(buf, { signal: ctl.signal })) {
          seen.push(r);
          if (seen.length === 10) ctl.abort();
        }
      })(),
    );
    assert.match(err.message, /abandoned/);
    assert.ok(seen.length < 2000);
  });
});
