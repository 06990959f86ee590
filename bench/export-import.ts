// Export and import on PostgreSQL:
// - export of 1,000,000 rows as CSV vs COPY (the same query) TO STDOUT in the same run, with the
//   server's peak RSS over its idle RSS;
// - import of 100,000 CSV rows, rows per second.
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { createDatabase } from '../src/db/client.ts';
import { createTokenService, setUpNewUser } from '../src/modules/identity/index.ts';
import { startBenchServer } from './lib.ts';
import { ensureBenchData } from './seed.ts';

const SECRET = 'bench-secret-bench-secret-bench-secret-0123';

async function copyRate(url: string, userId: number): Promise<{ rows: number; seconds: number; bytes: number }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const t0 = performance.now();
  const stream = c.query(
    copyTo(`copy (
      select t.date, t.kind, t.amount_cents / 100.0, c.name, t.note,
             coalesce((select string_agg(tg.name, '|') from transaction_tags tt join tags tg on tg.id = tt.tag_id where tt.transaction_id = t.id), ''),
             t.group_id, t.created_at
      from transactions t join categories c on c.id = t.category_id
      where t.user_id = ${Number(userId)} and t.date between '2000-01-01' and '2100-12-31'
      order by t.date, t.id) to stdout with (format csv, header true)`),
  );
  let bytes = 0;
  let lines = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines++;
  }
  const seconds = (performance.now() - t0) / 1000;
  await c.end();
  return { rows: lines - 1, seconds, bytes };
}

export async function run() {
  const data = await ensureBenchData();
  const tokens = createTokenService(SECRET);
  const server = await startBenchServer({ DATABASE_URL: data.url, JWT_SECRET: SECRET, PORT: '39192' });
  const base = `http://127.0.0.1:${server.port}`;
  try {
    // export
    const token = await tokens.signAccess(data.exportUser, 'user');
    await new Promise((r) => setTimeout(r, 500));
    const idleRss = server.rssMb();
    let peakRss = idleRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, server.rssMb())), 25);
    const t0 = performance.now();
    const res = await fetch(`${base}/api/export?startDate=2000-01-01&endDate=2100-12-31&format=csv`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!res.ok) throw new Error(`export answered ${res.status}: ${await res.text()}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const b of chunk) if (b === 10) lines++;
    }
    const exportSeconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    const exportRows = lines - 1;
    const copy = await copyRate(data.url, data.exportUser);

    // import: 100,000 rows into a fresh user
    const database = await createDatabase({ databaseUrl: data.url, embeddedDbDir: null, poolSize: 2 });
    const c = new pg.Client({ connectionString: data.url });
    await c.connect();
    const { rows } = await c.query(
      "insert into users (provider, provider_subject, nickname) values ('bench', 'import-' || gen_random_uuid(), " +
        "'import') returning id, created_at",
    );
    const importUser = rows[0].id as number;
    // categories and the default account, as a new user gets them
    await setUpNewUser(database.db, { id: importUser, baseCurrency: 'CNY', createdAt: rows[0].created_at });
    const header = 'date,kind,amount,category,note,tags,group_id,created_at\n';
    const cats = ['Food', 'Transport', 'Shopping', 'Housing', 'Travel', 'Imported A', 'Imported B'];
    let csv = '\ufeff' + header;
    for (let i = 0; i < 100_000; i++) {
      const day = String((i % 28) + 1).padStart(2, '0');
      const month = String((i % 12) + 1).padStart(2, '0');
      csv += `2025-${month}-${day},expense,${(i % 5000) + 1}.${String(i % 100).padStart(2, '0')},${cats[i % cats.length]},row ${i},,,\n`;
    }
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'import.csv');
    const importToken = await tokens.signAccess(importUser, 'user');
    const t1 = performance.now();
    const imp = await fetch(`${base}/api/import`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${importToken}` },
    });
    const importSeconds = (performance.now() - t1) / 1000;
    const importBody = (await imp.json()) as { imported?: number };
    if (!imp.ok) throw new Error(`import answered ${imp.status}: ${JSON.stringify(importBody).slice(0, 300)}`);
    await c.query('delete from users where id = $1', [importUser]);
    await c.end();
    await database.close();

    return {
      export_1m_rows_csv: {
        rows: exportRows,
        seconds: Math.round(exportSeconds * 100) / 100,
        rows_per_s: Math.round(exportRows / exportSeconds),
        mb: Math.round(bytes / 1048576),
        copy_rows_per_s: Math.round(copy.rows / copy.seconds),
        'export / copy': Math.round((exportRows / exportSeconds / (copy.rows / copy.seconds)) * 100) / 100,
        server_idle_rss_mb: Math.round(idleRss),
        server_peak_rss_mb: Math.round(peakRss),
        'peak - idle (MB)': Math.round(peakRss - idleRss),
      },
      import_100k_rows_csv: {
        imported: importBody.imported,
        seconds: Math.round(importSeconds * 100) / 100,
        rows_per_s: Math.round(100_000 / importSeconds),
      },
    };
  } finally {
    await server.stop();
  }
}
