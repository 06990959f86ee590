// Bill import on PostgreSQL: a 100,000-row Alipay bill (GB18030 CSV, the app's layout) read into a
// preview and committed, rows per second of the two together, and the server's peak RSS over its
// idle RSS while it works. Runs in a database of its own, created afresh for each run.
// The limit beside it, measured in the same run: the same bill decoded and parsed (iconv-lite and
// csv-parse, as the service reads it), its rows stored once with COPY (the preview's table) and
// written once into transactions with one INSERT ... SELECT through pg, in a transaction that is
// rolled back.
import { Readable } from 'node:stream';
import { parse as csvParser } from 'csv-parse';
import iconv from 'iconv-lite';
import pg from 'pg';
import { directImportRate, PG_URL, startBenchServer } from './lib.ts';

const ROWS = 100_000;
const DB = process.env.BENCH_IMPORT_DB_NAME || 'ledger_bench_bill_import';
const SECRET = 'bench-secret-bench-secret-bench-secret-0123';

export function alipayBill(n: number): Buffer {
  const head = [
    '------------------------------------------------------------------------------------',
    '导出信息：',
    '姓名：示例用户',
    `共${n}笔记录`,
    '------------------------支付宝（中国）网络技术有限公司  电子客户回单------------------------',
    '交易时间,交易分类,交易对方,对方账号,商品说明,收/支,金额,收/付款方式,交易状态,交易订单号,商家订单号,备注,',
  ];
  const payees = Array.from({ length: 400 }, (_, i) => `示例商户${i}`);
  const cats = ['餐饮美食', '日用百货', '交通出行', '文化休闲', '充值缴费'];
  const lines: string[] = [...head];
  for (let i = 0; i < n; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    const month = String((i % 12) + 1).padStart(2, '0');
    const id = `2025${month}${day}22001400${String(i).padStart(12, '0')}`;
    const closed = i % 50 === 0;
    lines.push(
      `2025-${month}-${day} 12:${String(i % 60).padStart(2, '0')}:00,${cats[i % cats.length]},${payees[i % payees.length]},p***@example.com,商品${i % 97},${closed ? '不计收支' : '支出'},${(i % 5000) + 1}.${String(i % 100).padStart(2, '0')},${i % 3 ? '花呗' : '余额'},${closed ? '交易关闭' : '交易成功'},${id}\t,T${id}\t,,`,
    );
  }
  return iconv.encode(lines.join('\r\n') + '\r\n', 'gb18030');
}

/** The least work of an import done directly (directImportRate): the bill parsed as the service parses it. */
function directRate(url: string, userId: number, bill: Buffer): Promise<number> {
  return directImportRate(url, userId, ROWS, async (copy) => {
    const parser = Readable.from([bill])
      .pipe(iconv.decodeStream('gb18030'))
      .pipe(csvParser({ relax_column_count: true, relax_quotes: true, skip_empty_lines: true }));
    // the rows go in as the file is parsed (the preview's way in on PostgreSQL)
    let row = 0;
    let header = false;
    let lines = '';
    for await (const cells of parser as AsyncIterable<string[]>) {
      if (!header) {
        header = cells[0] === '交易时间';
        continue;
      }
      if (cells[8] !== '交易成功') continue;
      lines += `${++row}\t${cells[0]!.slice(0, 10)}\t${Math.round(Number(cells[6]) * 100)}\t${cells[2]}\t${cells[4]}\t${cells[9]!.trim()}\n`;
      if (row % 2000 === 0) {
        await copy(lines);
        lines = '';
      }
    }
    await copy(lines);
  });
}

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
    PORT: process.env.BENCH_PORT || '39193',
  });
  const base = `http://127.0.0.1:${server.port}`;
  const headers = { authorization: `Bearer ${server.token}` };
  try {
    const bill = alipayBill(ROWS);
    await new Promise((r) => setTimeout(r, 1000));
    const idleRss = server.rssMb();
    let peakRss = idleRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, server.rssMb())), 20);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bill)], { type: 'text/csv' }), 'alipay.csv');
    const t0 = performance.now();
    const res = await fetch(`${base}/api/import/bills`, { method: 'POST', body: form, headers });
    const preview = (await res.json()) as {
      id: number;
      total: number;
      summary: { import: number; methods: { method: string; account_id: number | null }[] };
    };
    if (!res.ok) throw new Error(`preview answered ${res.status}: ${JSON.stringify(preview).slice(0, 300)}`);
    // the payment methods the bill names go to the person's default account, as the limit books them:
    // chosen in the review, as a person would (an account is never guessed for a method)
    const open = preview.summary.methods.filter((m) => m.account_id === null);
    if (open.length) {
      const accounts = (await (await fetch(`${base}/api/accounts`, { headers })).json()) as {
        list: { id: number; is_default: boolean }[];
      };
      const account = accounts.list.find((a) => a.is_default) ?? accounts.list[0]!;
      const mapped = await fetch(`${base}/api/import/bills/${preview.id}/rows`, {
        method: 'PATCH',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          mappings: { accounts: open.map((m) => ({ method: m.method, account_id: account.id })) },
        }),
      });
      if (!mapped.ok) throw new Error(`mapping answered ${mapped.status}: ${(await mapped.text()).slice(0, 300)}`);
    }
    const previewSeconds = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const c = await fetch(`${base}/api/import/bills/${preview.id}/commit`, { method: 'POST', headers });
    const commit = (await c.json()) as { imported: number; skipped: number };
    const commitSeconds = (performance.now() - t1) / 1000;
    clearInterval(sampler);
    if (!c.ok) throw new Error(`commit answered ${c.status}: ${JSON.stringify(commit).slice(0, 300)}`);
    const seconds = previewSeconds + commitSeconds;
    const direct = await directRate(url.toString(), server.userId, bill);
    return {
      alipay_100k_rows: {
        rows: preview.total,
        file_mb: Math.round((bill.length / 1048576) * 10) / 10,
        preview_seconds: Math.round(previewSeconds * 100) / 100,
        commit_seconds: Math.round(commitSeconds * 100) / 100,
        imported: commit.imported,
        skipped: commit.skipped,
        'rows_per_s (preview + commit)': Math.round(ROWS / seconds),
        target_rows_per_s: 20_000,
        'direct rows_per_s (parse, COPY, book through pg)': Math.round(direct),
        'service / direct': Math.round((ROWS / seconds / direct) * 100) / 100,
        server_idle_rss_mb: Math.round(idleRss),
        server_peak_rss_mb: Math.round(peakRss),
        'peak - idle (MB)': Math.round(peakRss - idleRss),
        target_peak_minus_idle_mb: 200,
      },
    };
  } finally {
    await server.stop();
  }
}
