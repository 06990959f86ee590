// The whole flow once more in Chinese on a 390 px phone: the bottom tab bar, every screen free of
// English words and of serious accessibility violations, and the catalogue's Chinese errors.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { PHONE, axeViolations, screenshotPath, serverAndBrowser, until, type Tab } from './harness.ts';

/** Words of two or more Latin letters, except names that are not English prose (file formats, units, and the
 * language switch naming English in English). */
async function englishWords(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText();
  return (text.match(/[A-Za-z]{2,}/g) ?? []).filter(
    (w) => !['CSV', 'JSON', 'Excel', 'MB', 'https', 'http', 'English'].includes(w),
  );
}

describe('the client in Chinese at phone size', () => {
  const live = serverAndBrowser(3140);
  let tab: Tab;
  const page = () => tab.page;

  before(async () => {
    tab = await live.openTab({ locale: 'zh-CN', viewport: PHONE });
  });

  async function screen(name: string) {
    await page().waitForTimeout(300);
    assert.deepEqual(await englishWords(page()), [], `${name}: English on a Chinese screen`);
    assert.deepEqual(await axeViolations(page()), [], `${name}: accessibility`);
  }

  it('signs in with the demo in Chinese: Chinese categories and notes, the tab bar instead of the sidebar', async () => {
    await page().goto('/');
    assert.equal(await page().locator('html').getAttribute('lang'), 'zh-CN');
    await screen('登录');
    await page().getByRole('button', { name: '体验一下' }).click();
    await page().waitForURL(/\/books$/);
    await page().locator('[data-testid="tx-row"]').first().waitFor();
    assert.equal(await page().locator('nav.side').isVisible(), false);
    const tabs = page().getByRole('navigation', { name: '主要栏目' });
    assert.deepEqual(
      (await tabs.locator('a, button').allInnerTexts()).map((x) => x.trim()),
      ['账本', '统计', '记一笔', '预算', '我的'],
    );
    await screen('账本');
    await page().screenshot({ path: screenshotPath('phone.png') });
  });

  it('adds, edits and deletes from the tab bar, with errors from the Chinese catalogue', async () => {
    await page().getByTestId('tab-add').click();
    const dialog = page().getByRole('dialog', { name: '记一笔' });
    await dialog.locator('input[name="amount"]').fill('12.345');
    await dialog.getByRole('button', { name: '保存' }).click();
    await dialog.getByText('请输入大于 0 的金额，最多两位小数。').waitFor();
    await screen('记一笔');
    await dialog.locator('input[name="amount"]').fill('66');
    await dialog.locator('input[name="note"]').fill('晚饭');
    await dialog.getByRole('button', { name: '保存' }).click();
    await page().getByText('已记一笔').waitFor();
    const row = page().locator('[data-testid="tx-row"]', { hasText: '晚饭' }).filter({ hasText: '-¥66.00' }).first();
    await row.waitFor();
    await row.click();
    const edit = page().getByRole('dialog', { name: '编辑账目' });
    await edit.locator('input[name="note"]').fill('和家人吃晚饭');
    await edit.getByRole('button', { name: '保存' }).click();
    const edited = page().locator('[data-testid="tx-row"]', { hasText: '和家人吃晚饭' });
    await edited.waitFor();
    await edited.click();
    await page().getByRole('dialog', { name: '编辑账目' }).getByRole('button', { name: '删除' }).click();
    await page().getByRole('dialog', { name: '删除账目' }).getByRole('button', { name: '删除' }).click();
    await edited.waitFor({ state: 'detached' });
  });

  it('walks every screen from the tab bar and the 我的 menu', async () => {
    const tabs = page().getByRole('navigation', { name: '主要栏目' });
    await tabs.getByRole('link', { name: '统计' }).click();
    await page().locator('[data-testid="donut"][data-drawn] canvas').waitFor();
    // named in Chinese for screen readers, not by the chart library's English description
    assert.equal(await page().getByTestId('donut').getAttribute('aria-label'), '各分类支出占比环形图');
    await until(async () => (await page().locator('ul.legend li').count()) > 0, 'the legend');
    assert.match(await page().locator('ul.legend').innerText(), /餐饮/);
    await screen('统计');
    await tabs.getByRole('link', { name: '预算' }).click();
    await page().getByRole('progressbar').first().waitFor();
    await screen('预算');
    await tabs.getByRole('link', { name: '我的' }).click();
    await screen('我的');
    for (const [link, heading] of [
      ['个人资料', '个人资料'],
      ['群组', '群组'],
      ['分类与标签', '分类与标签'],
      ['周期账单', '周期账单'],
      ['消息', '消息'],
      ['意见反馈', '意见反馈'],
      ['导入导出', '导入导出'],
    ] as const) {
      await page().goto('/me');
      await page().getByRole('navigation', { name: '我的' }).getByRole('link', { name: link, exact: true }).click();
      await page().getByRole('heading', { name: heading, level: 1 }).waitFor();
      await screen(link);
    }
  });

  it('left nothing in the console', () => {
    assert.deepEqual(tab.problems, []);
  });
});
