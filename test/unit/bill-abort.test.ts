import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { AppError } from '../../src/lib/errors.ts';
import { readBill } from '../../src/modules/import/bill.parse.ts';

// A large WeChat bill built from the sample's header block and one of its rows, numbered.
function bigWechat(rows: number): Buffer {
  const text = readFileSync(new URL('../fixtures/bills/wechat.csv', import.meta.url), 'utf8');
  const lines = text.split(/\r?\n/);
  const header = lines.findIndex((l) => l.startsWith('交易时间,'));
  const out = lines.slice(0, header + 1);
  for (let i = 0; i < rows; i++)
    out.push(
      `2024-03-18 19:42:10,商户消费,青禾小馆,"晚餐套餐 ${i}",支出,¥58.00,零钱,支付成功,42000020240318${String(i).padStart(14, '0')}\t,1002403${i}\t,"/"`,
    );
  return Buffer.from(out.join('\n') + '\n');
}

describe('bill reading stops when the client goes away', () => {
  it('reads no further than the batch in which the signal turned', async () => {
    const rows = 20_000;
    const ctl = new AbortController();
    let handed = 0;
    const read = readBill(bigWechat(rows), {
      presets: [],
      batchSize: 1000,
      signal: ctl.signal,
      onRows: async (batch) => {
        handed += batch.length;
        // the client goes away once the first batch is stored
        ctl.abort();
      },
    });
    await assert.rejects(read, (err: unknown) => err instanceof AppError && err.code === 40001);
    assert.ok(handed >= 1000 && handed <= 2000, `rows handed over: ${handed} of ${rows}`);
  });

  it('reads the whole bill while the client stays', async () => {
    let handed = 0;
    const out = await readBill(bigWechat(3000), {
      presets: [],
      batchSize: 1000,
      signal: new AbortController().signal,
      onRows: async (b) => void (handed += b.length),
    });
    assert.equal(out.rows, 3000);
    assert.equal(handed, 3000);
  });
});
