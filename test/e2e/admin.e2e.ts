// The administrator's pages, feedback answered by the administrator, and an important notice
// that pops up for a user, every screen checked with axe.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ADMIN_OPENID, axeViolations, serverAndBrowser, signInWechat, type Tab } from './harness.ts';

describe('administration and notices in the browser', () => {
  const live = serverAndBrowser(3130);
  let admin: Tab;
  let carol: Tab;

  before(async () => {
    admin = await live.openTab();
    carol = await live.openTab();
  });

  it('shows the WeChat form only when the service offers WeChat sign-in', async () => {
    const config = await (await fetch(`${live.server.base}/api/config`)).json();
    assert.deepEqual(config.auth_methods, ['password', 'wechat', 'demo']);
    await carol.page.goto('/signin');
    await carol.page.locator('input[name="code"]').waitFor();
    // a service without WeChat (answered here as such a server answers): no code form at all
    const page = await carol.context.newPage();
    await page.route('**/api/config', (route) => route.fulfill({ json: { ...config, auth_methods: ['demo'] } }));
    await page.goto('/signin');
    await page.getByRole('button', { name: 'Try the demo' }).waitFor();
    assert.equal(await page.locator('input[name="code"]').count(), 0);
    await page.close();
  });

  it('a user sends feedback', async () => {
    await signInWechat(carol.page, 'carol');
    await carol.page.goto('/feedback');
    await carol.page.locator('textarea[name="content"]').fill('Please add a dark theme');
    await carol.page.getByRole('button', { name: 'Send', exact: true }).click();
    await carol.page.getByText('Thank you! Your feedback was sent.').waitFor();
    await carol.page.locator('[data-testid="feedback-item"]', { hasText: 'Please add a dark theme' }).waitFor();
    assert.deepEqual(await axeViolations(carol.page), []);
  });

  it('opens every administration page without accessibility violations', async () => {
    await signInWechat(admin.page, ADMIN_OPENID);
    const tabs = ['dashboard', 'users', 'feedback', 'notifications', 'config', 'backups', 'logs', 'track'];
    const headings = ['Dashboard', 'Users', 'Feedback', 'Notifications', 'Configuration', 'Backups', 'Logs', 'Usage'];
    for (const [i, key] of tabs.entries()) {
      await admin.page.goto(`/admin/${key}`);
      await admin.page.getByRole('heading', { name: `Administration · ${headings[i]}` }).waitFor();
      await admin.page.locator('main .card, main .empty').first().waitFor();
      assert.deepEqual(await axeViolations(admin.page), [], key);
    }
    await admin.page.goto('/admin/users');
    await admin.page.locator('[data-testid="user-row"]', { hasText: 'User arol' }).waitFor();
    await admin.page.goto('/admin/backups');
    await admin.page.getByRole('button', { name: 'Create backup' }).click();
    await admin.page.locator('[data-testid="backup-row"]').getByText('completed').waitFor({ timeout: 30_000 });
  });

  it('the administrator replies to the feedback and the user reads the reply', async () => {
    await admin.page.goto('/admin/feedback');
    const item = admin.page.locator('[data-testid="admin-feedback"]', { hasText: 'Please add a dark theme' });
    await item.getByRole('button', { name: 'Reply' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Reply to feedback' });
    await dialog.locator('textarea[name="reply"]').fill('It follows your system setting now.');
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await dialog.waitFor({ state: 'detached' });

    await carol.page.goto('/feedback');
    await carol.page
      .locator('[data-testid="feedback-item"]', { hasText: 'It follows your system setting now.' })
      .waitFor();
    await carol.page.goto('/notifications');
    await carol.page.locator('[data-testid="notice"]').first().waitFor();
    assert.deepEqual(await axeViolations(carol.page), []);
  });

  it('an important notice pops up once for the user and counts as read after closing', async () => {
    await admin.page.goto('/admin/notifications');
    await admin.page.getByRole('button', { name: 'Publish a notification' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Publish a notification' });
    await dialog.locator('input[name="title"]').fill('Maintenance tonight');
    await dialog.locator('textarea[name="content"]').fill('The service pauses from 23:00 to 23:30.');
    await dialog.locator('input[name="strong"]').check();
    await dialog.getByRole('button', { name: 'Publish' }).click();
    await admin.page.locator('[data-testid="admin-notice"]', { hasText: 'Maintenance tonight' }).waitFor();

    await carol.page.goto('/books');
    const popup = carol.page.getByRole('dialog', { name: 'Important' });
    await popup.getByText('Maintenance tonight').waitFor();
    assert.deepEqual(await axeViolations(carol.page), []);
    await popup.getByRole('button', { name: 'Got it' }).click();
    await popup.waitFor({ state: 'detached' });
    await carol.page.reload();
    await carol.page.locator('[data-testid="tx-row"], main .empty').first().waitFor();
    await carol.page.waitForTimeout(500);
    assert.equal(await carol.page.getByRole('dialog', { name: 'Important' }).count(), 0);
  });

  it('left nothing in either console', () => {
    assert.deepEqual(admin.problems, []);
    assert.deepEqual(carol.problems, []);
  });
});
