import { describe, expect, it } from 'vitest';
import { parseQuickEntry } from './parser';

// the browser reads a line with the server's own parser, so it works offline and reads the same
describe('the quick-entry parser in the web client', () => {
  it('reads a line without the server', () => {
    const p = parseQuickEntry('昨天 打车 32 微信', { today: '2026-11-26', accounts: [{ id: 7, name: '微信', type: 'e_wallet' }] });
    expect([p.kind, p.amount, p.date, p.account_id, p.concept, p.note]).toEqual(['expense', 32, '2026-11-25', 7, 'transport', '打车']);
    const q = parseQuickEntry('午饭 三十五块', { today: '2026-11-26' });
    expect([q.amount, q.currency, q.note]).toEqual([35, 'CNY', '午饭']);
  });
});
