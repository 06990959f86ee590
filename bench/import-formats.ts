// Bank statements on PostgreSQL: 100,000 entries of an OFX statement and of a camt.053 statement,
// each read into a preview and committed (rows per second of the two together), beside the limit
// measured in the same run: the same file read by the same reader (formats/ofx.ts, formats/camt.ts),
// its rows stored once with COPY and booked once with one INSERT ... SELECT, rolled back. The
// server's peak RSS over its idle RSS while it works. Then an MT940 file of nearly 20 MB previewed:
// its peak RSS growth, which a reader holding the decoded file and its lines would multiply.
import pg from 'pg';
import { readCamt } from '../src/modules/import/formats/camt.ts';
import { readOfx } from '../src/modules/import/formats/ofx.ts';
import type { SeedRow } from '../src/modules/import/import.rows.ts';
import { directImportRate, PG_URL, startBenchServer, type BenchServer } from './lib.ts';

const ROWS = 100_000;
const DB = process.env.BENCH_IMPORT_FORMATS_DB_NAME || 'ledger_bench_import_formats';
const SECRET = 'bench-secret-bench-secret-bench-secret-0123';
const MB = 1024 * 1024;

const day = (i: number) => `2019${String((i % 12) + 1).padStart(2, '0')}${String((i % 28) + 1).padStart(2, '0')}`;
const amount = (i: number) => `${(i % 5000) + 1}.${String(i % 100).padStart(2, '0')}`;

/** An OFX 1.x statement of `n` card payments from `account`, written without indentation, as banks do. */
export function ofxStatement(n: number, account: string): Buffer {
  const parts = [
    'OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\nSECURITY:NONE\r\nENCODING:UTF-8\r\nCHARSET:NONE\r\nCOMPRESSION:NONE\r\nOLDFILEUID:NONE\r\nNEWFILEUID:NONE\r\n\r\n',
    `<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STMTRS><CURDEF>CNY<BANKACCTFROM><BANKID>1<ACCTID>${account}<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>`,
  ];
  for (let i = 0; i < n; i++)
    parts.push(
      `<STMTTRN><TRNTYPE>POS<DTPOSTED>${day(i)}<TRNAMT>-${amount(i)}<FITID>F${i}<NAME>Shop ${i % 400}<MEMO>item ${i % 97}</STMTTRN>\r\n`,
    );
  parts.push('</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\r\n');
  return Buffer.from(parts.join(''));
}

/** A camt.053.001.02 statement of `n` booked debits of the account `iban`. */
export function camtStatement(n: number, iban: string): Buffer {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>',
    `<Id>S1</Id><Acct><Id><IBAN>${iban}</IBAN></Id><Ccy>CNY</Ccy></Acct>\n`,
  ];
  for (let i = 0; i < n; i++) {
    const d = day(i);
    parts.push(
      `<Ntry><Amt Ccy="CNY">${amount(i)}</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}</Dt></BookgDt><AcctSvcrRef>R${i}</AcctSvcrRef><AddtlNtryInf>Shop ${i % 400}</AddtlNtryInf></Ntry>\n`,
    );
  }
  parts.push('</Stmt></BkToCstmrStmt></Document>\n');
  return Buffer.from(parts.join(''));
}

/** An MT940 file of `n` entries with long German :86: purposes, its balances adding up. */
export function mt940File(n: number, account: string): Buffer {
  const parts = [`:20:BENCH\r\n:25:${account}\r\n:28C:00001/001\r\n:60F:C190101CNY0,00\r\n`];
  let balance = 0;
  for (let i = 0; i < n; i++) {
    const cents = (i % 5000) * 100 + 1 + (i % 99);
    balance -= cents;
    const d = day(i).slice(2);
    parts.push(
      `:61:${d}${d.slice(2)}D${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}NMSCNONREF//B${i}\r\n` +
        `:86:106?00KARTENZAHLUNG?20SVWZ+Einkauf ${i % 97} Filiale ${i % 31}?21Kartenzahlung girocard?22Terminal 4711 Datum ${d}?23Vielen Dank fuer Ihren Einkauf?24Bitte bewahren Sie den Beleg auf?32Shop ${i % 400}\r\n`,
    );
  }
  parts.push(
    `:62F:D191231CNY${Math.floor(-balance / 100)},${String(-balance % 100).padStart(2, '0')}\r\n-\r\n`.replace(
      'D191231CNY0,00',
      'C191231CNY0,00',
    ),
  );
  return Buffer.from(parts.join(''));
}

const tsv = (v: string) => v.replace(/[\t\n\\]/g, ' ');

/** The least work of an import done directly (directImportRate) with the same reader as the service. */
function directRate(
  url: string,
  userId: number,
  read: (onRows: (rows: SeedRow[]) => Promise<void>) => Promise<unknown>,
): Promise<number> {
  return directImportRate(url, userId, ROWS, async (copy) => {
    await read(async (rows) => {
      let lines = '';
      for (const r of rows)
        lines += `${r.row}\t${r.date}\t${r.amountMinor}\t${tsv(r.counterparty)}\t${tsv(r.note)}\t${tsv(r.externalId ?? '')}\n`;
      await copy(lines);
    });
  });
}

/** Previews and commits one file through the service: seconds of each and the peak RSS over idle. */
async function throughService(server: BenchServer, file: Buffer, name: string, commit = true) {
  const base = `http://127.0.0.1:${server.port}`;
  const headers = { authorization: `Bearer ${server.token}` };
  await new Promise((r) => setTimeout(r, 1000));
  const idleRss = server.rssMb();
  let peakRss = idleRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, server.rssMb())), 20);
  try {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)]), name);
    const t0 = performance.now();
    const res = await fetch(`${base}/api/import/bills`, { method: 'POST', body: form, headers });
    const preview = (await res.json()) as { id: number; total: number; summary: { import: number } };
    const previewSeconds = (performance.now() - t0) / 1000;
    if (!res.ok) throw new Error(`${name}: preview answered ${res.status}: ${JSON.stringify(preview).slice(0, 300)}`);
    let commitSeconds = 0;
    let imported = 0;
    if (commit) {
      const t1 = performance.now();
      const c = await fetch(`${base}/api/import/bills/${preview.id}/commit`, { method: 'POST', headers });
      const done = (await c.json()) as { imported: number };
      commitSeconds = (performance.now() - t1) / 1000;
      if (!c.ok) throw new Error(`${name}: commit answered ${c.status}: ${JSON.stringify(done).slice(0, 300)}`);
      imported = done.imported;
    }
    return { rows: preview.total, imported, previewSeconds, commitSeconds, idleRss, peakRss };
  } finally {
    clearInterval(sampler);
  }
}

/** Each file meets the same books: the rows of the one before are taken out again. */
async function clearBooks(url: string, userId: number): Promise<void> {
  const books = new pg.Client({ connectionString: url });
  await books.connect();
  await books.query(`delete from transactions where user_id = $1 and source in ('ofx', 'camt')`, [userId]);
  await books.end();
}

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

export async function run() {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${DB}`);
  await admin.query(`create database ${DB}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${DB}`;
  const server = await startBenchServer({
    DATABASE_URL: url.toString(),
    JWT_SECRET: SECRET,
    PORT: process.env.BENCH_PORT || '39194',
    // a preview of 100,000 rows on a busy shared machine may take longer than a request's default minute
    // and than the two minutes a socket may stay silent
    REQUEST_TIMEOUT_MS: '900000',
    CONNECTION_TIMEOUT_MS: '900000',
  });
  const base = `http://127.0.0.1:${server.port}`;
  const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
  try {
    // the statements are of the person's default account, and a rule files their payments: nothing left to decide
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    const { rows } = await c.query(
      `select a.name, (select id from categories where user_id = $1 and kind = 'expense' order by id limit 1) as category_id
       from accounts a where a.user_id = $1 and a.is_default`,
      [server.userId],
    );
    await c.end();
    const account = rows[0].name as string;
    const rule = await fetch(`${base}/api/import-rules`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ field: 'any', match: 'contains', value: 'Shop', category_id: rows[0].category_id }),
    });
    if (!rule.ok) throw new Error(`rule answered ${rule.status}: ${await rule.text()}`);

    const out: Record<string, unknown> = {};
    for (const [name, file, reader] of [
      [
        'ofx_100k_entries',
        ofxStatement(ROWS, account),
        (buf: Buffer, onRows: (r: SeedRow[]) => Promise<void>) => readOfx(buf, 'utf-8', { presets: [], onRows }),
      ],
      [
        'camt053_100k_entries',
        camtStatement(ROWS, account),
        (buf: Buffer, onRows: (r: SeedRow[]) => Promise<void>) => readCamt(buf, 'utf-8', { presets: [], onRows }),
      ],
    ] as const) {
      await clearBooks(url.toString(), server.userId);
      const s = await throughService(server, file, name.startsWith('ofx') ? 'bench.ofx' : 'bench.xml');
      const seconds = s.previewSeconds + s.commitSeconds;
      const direct = await directRate(url.toString(), server.userId, (onRows) => reader(file, onRows));
      out[name] = {
        rows: s.rows,
        imported: s.imported,
        file_mb: round(file.length / MB, 1),
        preview_seconds: round(s.previewSeconds),
        commit_seconds: round(s.commitSeconds),
        'rows_per_s (preview + commit)': Math.round(ROWS / seconds),
        'direct rows_per_s (same reader, COPY, one INSERT ... SELECT)': Math.round(direct),
        'service / direct': round(ROWS / seconds / direct),
        target_service_over_direct: 0.9,
        server_idle_rss_mb: Math.round(s.idleRss),
        'peak - idle (MB)': Math.round(s.peakRss - s.idleRss),
        target_peak_minus_idle_mb: 200,
      };
    }
    // as many entries as fit under the upload limit of 20 MiB, on the same books as the others
    let n = ROWS;
    let mt940 = mt940File(n, account);
    while (mt940.length > 20 * MB - 64 * 1024) mt940 = mt940File((n = Math.floor(n * 0.98)), account);
    await clearBooks(url.toString(), server.userId);
    const m = await throughService(server, mt940, 'bench.sta', false);
    out.mt940_near_20mb_preview = {
      entries: m.rows,
      file_mb: round(mt940.length / MB, 1),
      preview_seconds: round(m.previewSeconds),
      server_idle_rss_mb: Math.round(m.idleRss),
      'peak - idle (MB)': Math.round(m.peakRss - m.idleRss),
    };
    return out;
  } finally {
    await server.stop();
  }
}
