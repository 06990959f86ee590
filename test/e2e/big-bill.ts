// A WeChat Pay bill of thousands of payments reviewed on a phone whose processor is four times
// slower: shared by the browser test (what the review shows) and the web benchmark (how soon the
// first cards are painted after the preview's answer).
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { until, type Tab } from './harness.ts';

/** A WeChat Pay bill of `n` payments: known merchants and unknown ones, on two payment methods. */
export function bigWechatBill(n: number): Buffer {
  const head = readFileSync('test/fixtures/bills/wechat.csv', 'utf8').split('\n').slice(0, 17).join('\n');
  const who = ['美团外卖', '滴滴出行', '瑞幸咖啡', '中国移动', '拼多多', '青禾小馆', '阿杰'];
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    const time = `${String(8 + (i % 12)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00`;
    const method = i % 3 === 0 ? '招商银行储蓄卡(1234)' : '零钱';
    const amount = `${1 + (i % 97)}.${String(i % 100).padStart(2, '0')}`;
    lines.push(
      `2024-03-${day} ${time},商户消费,${who[i % who.length]},"第${i + 1}笔",支出,¥${amount},${method},支付成功,42${String(i).padStart(26, '0')}\t,M${i}\t,"/"`,
    );
  }
  return Buffer.from(`${head}\n${lines.join('\n')}\n`);
}

/** The review's rows drawn now (the list draws the rows in view and a few around them). */
export const reviewRows = (page: Page) => page.locator('[data-testid="bill-rows"] li[data-row]');

/**
 * Opens the import page with the processor 4x slower, uploads a bill of `n` payments and waits for its first
 * card; answers the milliseconds between the preview's answer and the frame that painted the first card, in the
 * page's own clock, and how to give the page its full speed back.
 */
export async function reviewBigBill(
  tab: Tab,
  n: number,
): Promise<{ firstCardMs: number; unthrottle: () => Promise<unknown> }> {
  const { page } = tab;
  await page.goto('/import');
  await page.getByTestId('bill-file').waitFor();
  const cdp = await tab.context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.evaluate(() => {
    const w = window as unknown as { firstCard?: number };
    new MutationObserver((_, o) => {
      if (!document.querySelector('[data-testid="bill-rows"] li[data-row]')) return;
      o.disconnect();
      requestAnimationFrame(() => (w.firstCard = performance.now()));
    }).observe(document.body, { childList: true, subtree: true });
  });
  await page
    .getByTestId('bill-file')
    .setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: bigWechatBill(n) });
  await reviewRows(page).first().waitFor({ timeout: 120_000 });
  await until(async () => page.evaluate(() => 'firstCard' in window), 'the first card painted');
  const firstCardMs = await page.evaluate(() => {
    const answer = performance
      .getEntriesByType('resource')
      .filter((e) => /\/api\/import\/bills(\?|$)/.test(e.name))
      .at(-1) as PerformanceResourceTiming;
    return (window as unknown as { firstCard: number }).firstCard - answer.responseEnd;
  });
  return { firstCardMs, unthrottle: () => cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 }) };
}
