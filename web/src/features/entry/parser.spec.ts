import { describe, expect, it } from 'vitest';
import { parseQuickEntry } from './parser';

// the browser reads a line with the server's own parser, so it works offline and reads the same
describe('the quick-entry parser in the web client', () => {
  it('reads a line without the server', () => {
    const p = parseQuickEntry('昨天 打车 32 微信', {
      today: '2026-11-26',
      accounts: [{ id: 7, name: '微信', type: 'e_wallet' }],
    });
    expect([p.kind, p.amount, p.date, p.account_id, p.concept, p.note]).toEqual([
      'expense',
      32,
      '2026-11-25',
      7,
      'transport',
      '打车',
    ]);
    const q = parseQuickEntry('午饭 三十五块', { today: '2026-11-26' });
    expect([q.amount, q.currency, q.note]).toEqual([35, 'CNY', '午饭']);
  });

  // the currency a line names is kept: a code, a symbol (before or after), a name in either language
  it.each([
    ['dinner 45 eur amex', 45, 'EUR', 1, 'dinner'],
    ['dinner EUR 45', 45, 'EUR', null, 'dinner'],
    ['45€ dinner', 45, 'EUR', null, 'dinner'],
    ['午饭 45欧元', 45, 'EUR', null, '午饭'],
    ['寿司 3000日元', 3000, 'JPY', null, '寿司'],
    ['taxi HK$120', 120, 'HKD', null, 'taxi'],
    ['打车 32 港币', 32, 'HKD', null, '打车'],
    ['coffee 4.5 USD', 4.5, 'USD', null, 'coffee'],
    ['晚饭 100 美元', 100, 'USD', null, '晚饭'],
    ['英镑 20 书', 20, 'GBP', null, '书'],
    ['£12.50 pub', 12.5, 'GBP', null, 'pub'],
    ['NT$300 夜市', 300, 'TWD', null, '夜市'],
    ['午饭 三十五块', 35, 'CNY', null, '午饭'],
    ['coffee 4.5 amex', 4.5, null, 1, 'coffee'],
  ])('%s', (line, amount, currency, account, note) => {
    const p = parseQuickEntry(line, { today: '2026-11-28', accounts: [{ id: 1, name: 'Amex', type: 'credit_card' }] });
    expect([p.amount, p.currency, p.account_id, p.note]).toEqual([amount, currency, account, note]);
  });
});
