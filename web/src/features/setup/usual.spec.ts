import { describe, expect, it } from 'vitest';
import { unknownAccountIn } from './usual';

describe('an account named in a line but not kept', () => {
  it.each([
    ['打车 微信', [{ name: '现金' }], '微信'],
    ['打车 微信', [{ name: '现金' }, { name: '微信' }], null],
    ['coffee cash', [{ name: 'Bank account' }], 'Cash'],
    ['coffee CASH', [{ name: 'cash' }], null],
    ['lunch with alipay friends', [], 'Alipay'],
    ['午饭，支付宝', [{ name: '现金' }], '支付宝'],
    ['晚饭 朋友', [], null],
    ['', [], null],
  ])('%s with %j: %s', (note, accounts, expected) => {
    expect(unknownAccountIn(note, accounts)?.name ?? null).toBe(expected);
  });
});
