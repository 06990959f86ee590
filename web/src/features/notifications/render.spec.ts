// Every notice the service writes renders from the catalogue in both languages, its params in place.
import { describe, expect, it } from 'vitest';
import { createI18n } from 'vue-i18n';
import { messages } from '../../i18n/catalogues';
import type { Notification } from '../../api/types';
import type { AppLocale } from '../../lib/format';
import { renderNotice } from './render';

type Params = NonNullable<Notification['params']>;

// the keys and params of src/modules/notifications/notifications.system.ts
const SHARED = { group: 'Flat', who: 'Ming', amount: 30, share: 15, currency: 'CNY', note: 'pizza' };
const SETTLEMENT = { group: 'Flat', who: 'Ming', amount: 15, currency: 'CNY' };
const WRITTEN: Record<string, Params> = {
  'feedback.replied': { reply: 'Fixed, thanks' },
  'split.expense': SHARED,
  'split.income': SHARED,
  'settlement.paid_you': SETTLEMENT,
  'settlement.received': SETTLEMENT,
  'settlement.confirmed': SETTLEMENT,
  'budget.exceeded': { month: '2026-03', amount: 1000, spent: 1234.5, currency: 'CNY' },
  'backup.completed': { name: 'ledger-2026-03-01.tar.gz', size: 2048 },
  'backup.failed': { name: 'ledger-2026-03-01.tar.gz' },
};

function renderIn(locale: AppLocale, key: string | null, params: Params | null) {
  const i18n = createI18n({ legacy: false, locale, messages, missingWarn: false, fallbackWarn: false });
  const { t, te } = i18n.global;
  return renderNotice(
    { title: 'as written', content: 'as written too', key, params },
    locale,
    (k, p) => t(k, p ?? {}),
    (k) => te(k, locale),
  );
}

describe("notices in the reader's language", () => {
  for (const locale of ['en', 'zh-CN'] as const) {
    it(`renders every notice the service writes in ${locale}, with no placeholder left`, () => {
      for (const [key, params] of Object.entries(WRITTEN)) {
        const { title, content } = renderIn(locale, key, params);
        expect(title, key).not.toBe('as written');
        expect(content, key).not.toBe('as written too');
        expect(`${title} ${content}`, key).not.toMatch(/[{}]/);
      }
    });
  }

  it('puts the params in: money for the reader, the note in brackets of the language', () => {
    const en = renderIn('en', 'split.expense', SHARED);
    expect(en.title).toBe('Flat: a new shared expense');
    expect(en.content).toBe('Ming recorded ¥30.00 (pizza). Your share is ¥15.00.');
    const zh = renderIn('zh-CN', 'split.expense', SHARED);
    expect(zh.content).toBe('Ming记了一笔¥30.00（pizza），你分摊¥15.00。');
    expect(renderIn('en', 'split.expense', { ...SHARED, note: '' }).content).toBe(
      'Ming recorded ¥30.00. Your share is ¥15.00.',
    );
  });

  it('shows a notice without a key, or with a key this client does not know, as it was written', () => {
    expect(renderIn('en', null, null)).toEqual({ title: 'as written', content: 'as written too' });
    expect(renderIn('zh-CN', 'something.newer', {})).toEqual({ title: 'as written', content: 'as written too' });
  });
});
