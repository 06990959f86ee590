// The interactive API documentation as a developer meets it: every operation of the document is
// shown, grouped by feature, and the security page links to it in both languages.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PHONE, serverAndBrowser } from './harness.ts';

const PORT = 3271;

describe('the API documentation in a browser', () => {
  const live = serverAndBrowser(PORT);

  it('shows every operation of the document, grouped by feature, as the page is scrolled', async () => {
    const doc = (await (await fetch(`${live.server.base}/api/openapi.json`)).json()) as {
      tags: { name: string }[];
      paths: Record<string, Record<string, unknown>>;
    };
    const expected = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    assert.ok(expected > 100, `the document has ${expected} operations`);
    const { page, context } = await live.openTab();
    try {
      await page.goto('/api/docs/');
      await page.locator('.opblock').first().waitFor();
      // The viewer draws only the operations near the screen: scroll through and collect every
      // operation it draws on the way, by its own element id. A busy machine may draw a part late,
      // once the page has scrolled past it: then another pass from the top (three at most).
      const seen = new Set<string>();
      const tags = new Set<string>();
      for (let pass = 0; pass < 3 && seen.size < expected; pass++) {
        await page.evaluate(() => window.scrollTo(0, 0));
        let stable = 0;
        for (let y = 0; stable < 3 && y < 400; y++) {
          const found = await page.evaluate(() => ({
            ops: [...document.querySelectorAll('.opblock')].map((el) => el.id).filter(Boolean),
            tags: [...document.querySelectorAll('.opblock-tag')].map((el) => el.getAttribute('data-tag') ?? ''),
            end: window.scrollY + window.innerHeight >= document.body.scrollHeight - 2,
          }));
          found.ops.forEach((id) => seen.add(id));
          found.tags.forEach((tag) => tags.add(tag));
          stable = found.end ? stable + 1 : 0;
          await page.mouse.wheel(0, 700);
          // two frames: the scroll is applied and the part it brings into view drawn
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        }
      }
      assert.equal(seen.size, expected, 'every operation is shown');
      assert.deepEqual(
        [...tags].filter(Boolean).sort(),
        doc.tags.map((tag) => tag.name).sort(),
        'grouped by the named features',
      );
    } finally {
      await context.close();
    }
  });

  for (const [locale, label] of [
    ['zh-CN', '接口文档'],
    ['en-GB', 'API documentation'],
  ] as const) {
    it(`links the security page's API tokens to the documentation (${locale}, phone)`, async () => {
      const tab = await live.signedInTab(`docs-${locale}`, { locale, viewport: PHONE });
      try {
        await tab.page.goto('/security');
        const link = tab.page.getByTestId('api-docs-link');
        await link.waitFor();
        assert.match((await link.textContent()) ?? '', new RegExp(label));
        assert.equal(await link.getAttribute('href'), '/api/docs/');
        const [docs] = await Promise.all([tab.context.waitForEvent('page'), link.click()]);
        // The viewer itself (every operation drawn) is the first test's; here the link opens it.
        await docs.waitForLoadState('domcontentloaded');
        assert.equal(new URL(docs.url()).pathname, '/api/docs/');
        await docs.locator('#swagger-ui').waitFor({ state: 'attached' });
      } finally {
        await tab.context.close();
      }
    });
  }
});
