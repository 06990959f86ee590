import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  categoryForConcept,
  conceptOf,
  parseChineseInteger,
  parseQuickEntry,
  type QuickEntry,
} from '../../src/lib/quick-entry/index.ts';

// Thursday 26 November 2026; every expected value below is written out by hand from a calendar
const TODAY = '2026-11-26';
const ACCOUNTS = [
  { id: 1, name: '现金', type: 'cash' },
  { id: 2, name: '微信', type: 'e_wallet' },
  { id: 3, name: 'Visa', type: 'credit_card' },
  { id: 4, name: '招商银行', type: 'debit_card' },
  { id: 5, name: '支付宝', type: 'e_wallet' },
  { id: 6, name: 'Old card', type: 'debit_card', archived: true },
];

type Want = Partial<
  Pick<QuickEntry, 'kind' | 'amount' | 'currency' | 'date' | 'account_id' | 'to_account_id' | 'note' | 'concept'>
>;

/** [line, expected]: fields not listed are checked against these defaults */
const DEFAULTS: Want = { currency: null, date: TODAY, account_id: null, to_account_id: null };

const ZH: [string, Want][] = [
  [
    '昨天 打车 32 微信',
    { kind: 'expense', amount: 32, date: '2026-11-25', account_id: 2, note: '打车', concept: 'transport' },
  ],
  ['午饭 三十五块', { kind: 'expense', amount: 35, currency: 'CNY', note: '午饭', concept: 'food' }],
  ['工资 8000 收入', { kind: 'income', amount: 8000, note: '工资', concept: 'salary' }],
  ['奶茶 两块五', { kind: 'expense', amount: 2.5, currency: 'CNY', note: '奶茶', concept: 'food' }],
  ['三毛', { kind: null, amount: 0.3, currency: 'CNY', note: '' }],
  ['塑料袋 三毛五', { kind: null, amount: 0.35, currency: 'CNY', note: '塑料袋' }],
  ['1.5万 奖金', { kind: 'income', amount: 15000, note: '奖金', concept: 'bonus' }],
  ['一百零五 超市', { kind: 'expense', amount: 105, note: '超市', concept: 'shopping' }],
  ['前天 话费 50', { kind: 'expense', amount: 50, date: '2026-11-24', note: '话费', concept: 'telecom' }],
  ['上周五 电影票 80', { kind: 'expense', amount: 80, date: '2026-11-20', note: '电影票', concept: 'entertainment' }],
  ['大前天 地铁 4', { kind: 'expense', amount: 4, date: '2026-11-23', note: '地铁', concept: 'transport' }],
  ['公交 2元', { kind: 'expense', amount: 2, currency: 'CNY', note: '公交', concept: 'transport' }],
  ['滴滴 二十八块五', { kind: 'expense', amount: 28.5, currency: 'CNY', note: '滴滴', concept: 'transport' }],
  ['盒马 一百二十三块四毛五', { kind: 'expense', amount: 123.45, currency: 'CNY', note: '盒马', concept: 'shopping' }],
  ['十二块八毛 早餐', { kind: 'expense', amount: 12.8, currency: 'CNY', note: '早餐', concept: 'food' }],
  ['早饭5毛', { kind: 'expense', amount: 0.5, currency: 'CNY', note: '早饭', concept: 'food' }],
  ['房租 两千三', { kind: 'expense', amount: 2300, note: '房租', concept: 'housing' }],
  ['年终奖 三万五', { kind: 'income', amount: 35000, note: '年终奖', concept: 'bonus' }],
  ['电费 一百五', { kind: 'expense', amount: 150, note: '电费', concept: 'utilities' }],
  ['水费 一千零五十', { kind: 'expense', amount: 1050, note: '水费', concept: 'utilities' }],
  ['买书 ¥45', { kind: 'expense', amount: 45, currency: 'CNY', note: '买书', concept: 'education' }],
  ['￥12.5 咖啡', { kind: 'expense', amount: 12.5, currency: 'CNY', note: '咖啡', concept: 'food' }],
  ['午饭三十五', { kind: 'expense', amount: 35, note: '午饭', concept: 'food' }],
  [
    '昨天打车32元微信',
    {
      kind: 'expense',
      amount: 32,
      currency: 'CNY',
      date: '2026-11-25',
      account_id: 2,
      note: '打车',
      concept: 'transport',
    },
  ],
  ['一块蛋糕15元', { kind: 'expense', amount: 15, currency: 'CNY', note: '一块蛋糕', concept: 'food' }],
  ['2杯咖啡 30', { kind: 'expense', amount: 30, note: '2杯咖啡', concept: 'food' }],
  ['地铁3号线 4元', { kind: 'expense', amount: 4, currency: 'CNY', note: '地铁3号线', concept: 'transport' }],
  ['统一 冰红茶 3', { kind: null, amount: 3, note: '统一 冰红茶' }],
  [
    '周一 火锅 268 支付宝',
    { kind: 'expense', amount: 268, date: '2026-11-23', account_id: 5, note: '火锅', concept: 'food' },
  ],
  ['本周一 加油 300', { kind: 'expense', amount: 300, date: '2026-11-23', note: '加油', concept: 'transport' }],
  ['上周一 体检 480', { kind: 'expense', amount: 480, date: '2026-11-16', note: '体检', concept: 'health' }],
  ['上上周三 机票 1280', { kind: 'expense', amount: 1280, date: '2026-11-11', note: '机票', concept: 'travel' }],
  ['星期日 电影 60', { kind: 'expense', amount: 60, date: '2026-11-22', note: '电影', concept: 'entertainment' }],
  ['礼拜五 KTV 200', { kind: 'expense', amount: 200, date: '2026-11-20', note: 'KTV', concept: 'entertainment' }],
  ['周五 药店 36.8', { kind: 'expense', amount: 36.8, date: '2026-11-20', note: '药店', concept: 'health' }],
  ['3月5日 学费 5000', { kind: 'expense', amount: 5000, date: '2026-03-05', note: '学费', concept: 'education' }],
  ['三月五号 培训 800', { kind: 'expense', amount: 800, date: '2026-03-05', note: '培训', concept: 'education' }],
  ['12月1日 酒店 688', { kind: 'expense', amount: 688, date: '2025-12-01', note: '酒店', concept: 'travel' }],
  ['5号 物业费 320', { kind: 'expense', amount: 320, date: '2026-11-05', note: '物业费', concept: 'housing' }],
  ['28号 宽带 99', { kind: 'expense', amount: 99, date: '2026-10-28', note: '宽带', concept: 'utilities' }],
  ['31号 燃气 88', { kind: 'expense', amount: 88, date: '2026-10-31', note: '燃气', concept: 'utilities' }],
  ['3天前 外卖 25', { kind: 'expense', amount: 25, date: '2026-11-23', note: '外卖', concept: 'food' }],
  ['2026-01-15 高铁 553', { kind: 'expense', amount: 553, date: '2026-01-15', note: '高铁', concept: 'travel' }],
  ['2026年2月3日 红包 200 收入', { kind: 'income', amount: 200, date: '2026-02-03', note: '红包' }],
  ['淘宝退款 30', { kind: 'refund', amount: 30, note: '淘宝', concept: 'shopping' }],
  ['退款 京东 199 微信', { kind: 'refund', amount: 199, account_id: 2, note: '京东', concept: 'shopping' }],
  ['从招商银行转到微信 500', { kind: 'transfer', amount: 500, account_id: 4, to_account_id: 2, note: '' }],
  ['转账 现金 支付宝 1000', { kind: 'transfer', amount: 1000, account_id: 1, to_account_id: 5, note: '' }],
  ['利息 12.34 收到', { kind: 'income', amount: 12.34, note: '利息', concept: 'investment' }],
  ['兼职 600', { kind: 'income', amount: 600, note: '兼职', concept: 'parttime' }],
  ['报销 356', { kind: 'income', amount: 356, note: '报销', concept: 'other_income' }],
  ['花了 45 买菜 现金', { kind: 'expense', amount: 45, account_id: 1, note: '买菜', concept: 'food' }],
  ['用微信 付了 18 奶茶', { kind: 'expense', amount: 18, account_id: 2, note: '奶茶', concept: 'food' }],
  ['Netflix 会员 30', { kind: 'expense', amount: 30, note: 'Netflix 会员', concept: 'entertainment' }],
  ['星巴克 38 信用卡', { kind: 'expense', amount: 38, account_id: 3, note: '星巴克', concept: 'food' }],
  ['美团外卖 26.5 微信支付', { kind: 'expense', amount: 26.5, account_id: 2, note: '美团外卖', concept: 'food' }],
  ['共享单车 1.5', { kind: 'expense', amount: 1.5, note: '共享单车', concept: 'transport' }],
  ['停车费 十块', { kind: 'expense', amount: 10, currency: 'CNY', note: '停车费', concept: 'transport' }],
  ['流量包 三十', { kind: 'expense', amount: 30, note: '流量包', concept: 'telecom' }],
  ['游戏 6刀', { kind: 'expense', amount: 6, currency: 'USD', note: '游戏', concept: 'entertainment' }],
  ['日本 酒店 8000日元', { kind: 'expense', amount: 8000, currency: 'JPY', note: '日本 酒店', concept: 'travel' }],
  ['衣服 299 花呗', { kind: 'expense', amount: 299, account_id: 5, note: '衣服', concept: 'shopping' }],
  ['今天 水果 二十', { kind: 'expense', amount: 20, note: '水果', concept: 'food' }],
  [
    '昨日 挂号 五十元',
    { kind: 'expense', amount: 50, currency: 'CNY', date: '2026-11-25', note: '挂号', concept: 'health' },
  ],
  ['杂费', { kind: null, amount: null, note: '杂费' }],
  ['２５ 饮料', { kind: 'expense', amount: 25, note: '饮料', concept: 'food' }],
];

const EN: [string, Want][] = [
  [
    'coffee 4.5 yesterday visa',
    { kind: 'expense', amount: 4.5, date: '2026-11-25', account_id: 3, note: 'coffee', concept: 'food' },
  ],
  ['Coffee 4.50', { kind: 'expense', amount: 4.5, note: 'Coffee', concept: 'food' }],
  ['lunch 12', { kind: 'expense', amount: 12, note: 'lunch', concept: 'food' }],
  ['Subway fare 2.75', { kind: 'expense', amount: 2.75, note: 'Subway fare', concept: 'transport' }],
  ['Netflix 15.99', { kind: 'expense', amount: 15.99, note: 'Netflix', concept: 'entertainment' }],
  ['netflix $15.99', { kind: 'expense', amount: 15.99, currency: 'USD', note: 'netflix', concept: 'entertainment' }],
  ['salary 8000 income', { kind: 'income', amount: 8000, note: 'salary', concept: 'salary' }],
  ['bonus 1.5k', { kind: 'income', amount: 1500, note: 'bonus', concept: 'bonus' }],
  ['uber 23.40 yesterday', { kind: 'expense', amount: 23.4, date: '2026-11-25', note: 'uber', concept: 'transport' }],
  ['taxi 18 cash', { kind: 'expense', amount: 18, account_id: 1, note: 'taxi', concept: 'transport' }],
  ['bus 2.5 today', { kind: 'expense', amount: 2.5, note: 'bus', concept: 'transport' }],
  ['groceries 54.20 on visa', { kind: 'expense', amount: 54.2, account_id: 3, note: 'groceries', concept: 'food' }],
  ['supermarket 80 wechat', { kind: 'expense', amount: 80, account_id: 2, note: 'supermarket', concept: 'shopping' }],
  ['amazon 39.99 alipay', { kind: 'expense', amount: 39.99, account_id: 5, note: 'amazon', concept: 'shopping' }],
  ['rent 1200', { kind: 'expense', amount: 1200, note: 'rent', concept: 'housing' }],
  ['electricity bill 65', { kind: 'expense', amount: 65, note: 'electricity bill', concept: 'utilities' }],
  [
    'internet 40 last friday',
    { kind: 'expense', amount: 40, date: '2026-11-20', note: 'internet', concept: 'utilities' },
  ],
  ['phone bill 30', { kind: 'expense', amount: 30, note: 'phone bill', concept: 'telecom' }],
  [
    'movie tickets 24 friday',
    { kind: 'expense', amount: 24, date: '2026-11-20', note: 'movie tickets', concept: 'entertainment' },
  ],
  [
    'spotify 9.99 on monday',
    { kind: 'expense', amount: 9.99, date: '2026-11-23', note: 'spotify', concept: 'entertainment' },
  ],
  [
    'pharmacy 12.80 last thursday',
    { kind: 'expense', amount: 12.8, date: '2026-11-19', note: 'pharmacy', concept: 'health' },
  ],
  ['dentist 150 thursday', { kind: 'expense', amount: 150, note: 'dentist', concept: 'health' }],
  ['books 35 3 days ago', { kind: 'expense', amount: 35, date: '2026-11-23', note: 'books', concept: 'education' }],
  ['course 199 mar 5', { kind: 'expense', amount: 199, date: '2026-03-05', note: 'course', concept: 'education' }],
  ['hotel 320 5 march', { kind: 'expense', amount: 320, date: '2026-03-05', note: 'hotel', concept: 'travel' }],
  ['flight 540 Dec 24', { kind: 'expense', amount: 540, date: '2025-12-24', note: 'flight', concept: 'travel' }],
  [
    'airbnb 210 the day before yesterday',
    { kind: 'expense', amount: 210, date: '2026-11-24', note: 'airbnb', concept: 'travel' },
  ],
  ['gym 45 this monday', { kind: 'expense', amount: 45, date: '2026-11-23', note: 'gym', concept: 'entertainment' }],
  ['breakfast 6 on tuesday', { kind: 'expense', amount: 6, date: '2026-11-24', note: 'breakfast', concept: 'food' }],
  ['dinner 42 wed', { kind: 'expense', amount: 42, date: '2026-11-25', note: 'dinner', concept: 'food' }],
  ['pizza 18 sunday', { kind: 'expense', amount: 18, date: '2026-11-22', note: 'pizza', concept: 'food' }],
  ['brunch 27 saturday', { kind: 'expense', amount: 27, date: '2026-11-21', note: 'brunch', concept: 'food' }],
  ['tea 3 2026-11-01', { kind: 'expense', amount: 3, date: '2026-11-01', note: 'tea', concept: 'food' }],
  ['refund amazon 25', { kind: 'refund', amount: 25, note: 'amazon', concept: 'shopping' }],
  ['amazon refunded 12.99 visa', { kind: 'refund', amount: 12.99, account_id: 3, note: 'amazon', concept: 'shopping' }],
  [
    'transfer 500 from 招商银行 to alipay',
    { kind: 'transfer', amount: 500, account_id: 4, to_account_id: 5, note: '' },
  ],
  ['moved to cash 200 from wechat', { kind: 'transfer', amount: 200, account_id: 1, to_account_id: 2, note: '' }],
  ['interest 3.21 received', { kind: 'income', amount: 3.21, note: 'interest', concept: 'investment' }],
  ['dividends 48', { kind: 'income', amount: 48, note: 'dividends', concept: 'investment' }],
  ['freelance 650', { kind: 'income', amount: 650, note: 'freelance', concept: 'parttime' }],
  ['got paid 3000 salary', { kind: 'income', amount: 3000, note: 'salary', concept: 'salary' }],
  ['reimbursement 84.5', { kind: 'income', amount: 84.5, note: 'reimbursement', concept: 'other_income' }],
  ['spent 20 on snacks', { kind: 'expense', amount: 20, note: 'snacks', concept: 'food' }],
  ['paid 60 for gas', { kind: 'expense', amount: 60, note: 'gas', concept: 'transport' }],
  ['gas bill 70', { kind: 'expense', amount: 70, note: 'gas bill', concept: 'utilities' }],
  ['parking 8 bucks', { kind: 'expense', amount: 8, currency: 'USD', note: 'parking', concept: 'transport' }],
  ['museum 15 euros', { kind: 'expense', amount: 15, currency: 'EUR', note: 'museum', concept: 'entertainment' }],
  ['train ticket £23.50', { kind: 'expense', amount: 23.5, currency: 'GBP', note: 'train ticket', concept: 'travel' }],
  ['sushi ¥1200 yen', { kind: null, amount: 1200, currency: 'JPY', note: 'sushi' }],
  ['ramen 980 jpy', { kind: null, amount: 980, currency: 'JPY', note: 'ramen' }],
  ['cinema €11', { kind: 'expense', amount: 11, currency: 'EUR', note: 'cinema', concept: 'entertainment' }],
  ['2 coffees 7.80', { kind: 'expense', amount: 2, note: 'coffees 7.80', concept: 'food' }],
  [
    'steam game 59.99 credit card',
    { kind: 'expense', amount: 59.99, account_id: 3, note: 'steam game', concept: 'entertainment' },
  ],
  ['kfc 32 mastercard', { kind: 'expense', amount: 32, account_id: 3, note: 'kfc', concept: 'food' }],
  ['shoes 89.90 yesterday', { kind: 'expense', amount: 89.9, date: '2026-11-25', note: 'shoes', concept: 'shopping' }],
  ['tuition 2k', { kind: 'expense', amount: 2000, note: 'tuition', concept: 'education' }],
  ['lyft 14', { kind: 'expense', amount: 14, note: 'lyft', concept: 'transport' }],
  ['misc 10', { kind: null, amount: 10, note: 'misc' }],
  ['birthday gift 50', { kind: null, amount: 50, note: 'birthday gift' }],
  ['lunch', { kind: 'expense', amount: null, note: 'lunch', concept: 'food' }],
  ['CAFÉ 4', { kind: 'expense', amount: 4, note: 'CAFÉ', concept: 'food' }],
  ['ＣＯＦＦＥＥ ４．５', { kind: 'expense', amount: 4.5, note: 'COFFEE', concept: 'food' }],
  ['pub 30 old card', { kind: 'expense', amount: 30, note: 'pub old card', concept: 'entertainment' }],
];

function check(table: [string, Want][]) {
  for (const [line, want] of table) {
    it(line, () => {
      const got = parseQuickEntry(line, { today: TODAY, accounts: ACCOUNTS });
      const expected = { concept: null, ...DEFAULTS, ...want };
      const picked = Object.fromEntries(Object.keys(expected).map((k) => [k, got[k as keyof QuickEntry]]));
      assert.deepEqual(picked, expected);
    });
  }
}

describe('quick entry: Chinese phrasings', () => {
  it('has at least 60 of them', () => assert.ok(ZH.length >= 60, String(ZH.length)));
  check(ZH);
});

describe('quick entry: English phrasings', () => {
  it('has at least 60 of them', () => assert.ok(EN.length >= 60, String(EN.length)));
  check(EN);
});

/** An independent writer of Chinese numerals (the way they are read aloud in full), for the property. */
function toChinese(n: number): string {
  const d = '零一二三四五六七八九';
  const units = ['', '十', '百', '千'];
  const section = (x: number): string => {
    let s = '';
    let zero = false;
    for (let i = 3; i >= 0; i--) {
      const digit = Math.floor(x / 10 ** i) % 10;
      if (digit === 0) {
        if (s) zero = true;
        continue;
      }
      if (zero) s += '零';
      zero = false;
      s += d[digit]! + units[i]!;
    }
    return s;
  };
  if (n === 0) return '零';
  const high = Math.floor(n / 10000);
  const low = n % 10000;
  let s = high ? section(high) + '万' : '';
  if (low) s += (high && low < 1000 ? '零' : '') + section(low);
  return s;
}

describe('quick entry: properties', () => {
  it('reads every Chinese numeral up to 99,999,999 as written in full', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999 }), (n) => parseChineseInteger(toChinese(n)) === n),
      { numRuns: 2000 },
    );
  });

  it('reads 十 at the start as one ten (十五 = 15, 十万 = 100,000)', () => {
    assert.equal(parseChineseInteger('十五'), 15);
    assert.equal(parseChineseInteger('十万'), 100_000);
    assert.equal(parseChineseInteger('一亿两千万'), 120_000_000);
    assert.equal(parseChineseInteger('一二'), null);
    assert.equal(parseChineseInteger('百'), null);
  });

  it('reads any amount with up to 2 decimals exactly, in front of a note or behind it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99_999_999_999 }),
        fc.boolean(),
        fc.constantFrom('lunch', '午饭', '打车', 'taxi'),
        (cents, before, word) => {
          const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
          const got = parseQuickEntry(before ? `${text} ${word}` : `${word} ${text}`, { today: TODAY });
          return got.amount_cents === cents && got.amount === cents / 100 && got.note === word;
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('yuan, jiao and fen written in Chinese add up to the hundredths', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9999 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        (yuan, jiao, fen) => {
          const d = '零一二三四五六七八九';
          const got = parseQuickEntry(`${toChinese(yuan)}块${d[jiao]}毛${d[fen]}`, { today: TODAY });
          return got.amount_cents === yuan * 100 + jiao * 10 + fen && got.currency === 'CNY';
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a date N days back is N days back, in both languages', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.boolean(), (n, zh) => {
        const got = parseQuickEntry(zh ? `${n}天前 午饭 20` : `lunch 20 ${n} days ago`, { today: TODAY });
        const expected = new Date(Date.UTC(2026, 10, 26 - n)).toISOString().slice(0, 10);
        return got.date === expected && got.amount === 20;
      }),
    );
  });

  it('never throws, never invents an amount outside the books, never dates past tomorrow for a relative word', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 40 }), (a, b) => {
        const got = parseQuickEntry(a + b, { today: TODAY, accounts: ACCOUNTS });
        if (got.amount_cents !== null)
          assert.ok(got.amount_cents > 0 && got.amount_cents < 1e14 && Number.isSafeInteger(got.amount_cents));
        assert.match(got.date, /^\d{4}-\d{2}-\d{2}$/);
        assert.ok(got.note.length <= (a + b).normalize('NFKC').length);
        return true;
      }),
      { numRuns: 1000 },
    );
  });

  it('the note keeps only characters of the line, in their order', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('昨天', 'yesterday', '', '上周五'),
        fc.constantFrom('咖啡', 'coffee', '午饭', 'Netflix'),
        fc.integer({ min: 1, max: 100000 }),
        fc.constantFrom('微信', 'visa', ''),
        (d, w, n, acc) => {
          const got = parseQuickEntry([d, w, String(n), acc].filter(Boolean).join(' '), {
            today: TODAY,
            accounts: ACCOUNTS,
          });
          return (
            got.note === w &&
            got.amount === n &&
            got.account_id === (acc === '微信' ? 2 : acc === 'visa' ? 3 : null) &&
            got.date_given === (d !== '')
          );
        },
      ),
    );
  });
});

describe("quick entry: lexicon to the person's categories", () => {
  const cats = [
    { id: 10, name: '餐饮', kind: 'expense' as const, icon: 'food' },
    { id: 11, name: '交通', kind: 'expense' as const, icon: 'transport' },
    { id: 12, name: '其他', kind: 'expense' as const, icon: 'other' },
    { id: 13, name: 'My films', kind: 'expense' as const, icon: 'entertainment' },
    { id: 20, name: 'Other income', kind: 'income' as const, icon: 'other' },
  ];
  it('finds the category by its name, by the default icon, or by the fallback', () => {
    assert.equal(categoryForConcept(conceptOf('地铁')!, cats)?.id, 11);
    assert.equal(categoryForConcept(conceptOf('Netflix')!, cats)?.id, 13);
    // no 通讯 category: 话费 goes to 其他
    assert.equal(categoryForConcept(conceptOf('话费')!, cats)?.id, 12);
    assert.equal(
      categoryForConcept(conceptOf('话费')!, [
        ...cats,
        { id: 14, name: '通讯', kind: 'expense' as const, icon: 'phone' },
      ])?.id,
      14,
    );
    // no salary category: nothing (never another kind's)
    assert.equal(categoryForConcept(conceptOf('工资')!, cats), null);
    assert.equal(conceptOf('birthday gift'), null);
  });
});
