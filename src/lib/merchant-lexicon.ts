/*
 * A lexicon of well-known merchants and the kind of spending they stand for: 滴滴出行 is transport,
 * 瑞幸咖啡 is food, 中国移动 is the phone bill. It places a bill's row that no rule of the person's
 * and none of their history can place; a row it does not know stays without a category for the
 * person to decide. Names are matched folded (NFKC, lower case, no spaces) as parts of the
 * counterparty or the item, longest name first, so that "uber eats" is food while "uber" is transport.
 */

/** A kind of spending, with the names a person's category for it is usually given and the icon of the default one. */
export interface SpendingClass {
  key: 'food' | 'transport' | 'shopping' | 'telecom' | 'utilities' | 'entertainment' | 'health' | 'travel' | 'housing';
  /** the icon of the default category of this kind */
  icon: string;
  /** category names that stand for it, the most specific first (a person's 通讯 before the default 水电煤) */
  names: string[];
}

const CLASSES: Record<SpendingClass['key'], SpendingClass> = {
  food: { key: 'food', icon: 'food', names: ['餐饮', '美食', '吃饭', 'food', 'dining', 'eating out', 'restaurants'] },
  transport: { key: 'transport', icon: 'transport', names: ['交通', '出行', 'transport', 'travel to work'] },
  shopping: { key: 'shopping', icon: 'shopping', names: ['购物', '网购', 'shopping'] },
  telecom: {
    key: 'telecom',
    icon: 'utilities',
    names: ['通讯', '通信', '话费', '手机费', 'phone', 'mobile', 'telecom', '水电煤', '生活缴费', 'utilities', 'bills'],
  },
  utilities: { key: 'utilities', icon: 'utilities', names: ['水电煤', '生活缴费', '水电', 'utilities', 'bills'] },
  entertainment: { key: 'entertainment', icon: 'entertainment', names: ['娱乐', '休闲', 'entertainment', 'leisure'] },
  health: { key: 'health', icon: 'health', names: ['医疗', '健康', '医药', 'health', 'medical'] },
  travel: { key: 'travel', icon: 'travel', names: ['旅行', '旅游', '住宿', 'travel', 'holidays'] },
  housing: { key: 'housing', icon: 'housing', names: ['住房', '房租', '居住', 'housing', 'rent'] },
};

/** merchant names (and a few plain words of a kind of shop) by kind of spending */
const MERCHANTS: [SpendingClass['key'], string[]][] = [
  [
    'food',
    [
      '美团外卖',
      '美团',
      '饿了么',
      '瑞幸',
      'luckin',
      '星巴克',
      'starbucks',
      '麦当劳',
      'mcdonald',
      '肯德基',
      'kfc',
      '必胜客',
      'pizza hut',
      '汉堡王',
      'burger king',
      '喜茶',
      '奈雪',
      '蜜雪冰城',
      '茶百道',
      '古茗',
      '库迪',
      '霸王茶姬',
      '海底捞',
      '西贝',
      '老乡鸡',
      '外卖',
      '早餐',
      '午餐',
      '晚餐',
      '夜宵',
      '餐厅',
      '饭店',
      '小吃',
      '面馆',
      '咖啡',
      'uber eats',
      'deliveroo',
      'just eat',
      'doordash',
      'grubhub',
      "domino's",
      'dominos',
      'pret a manger',
      'costa coffee',
      'tim hortons',
      'chipotle',
      'restaurant',
      'cafe',
      'coffee',
    ],
  ],
  [
    'transport',
    [
      '滴滴',
      'didi',
      '高德打车',
      '曹操出行',
      't3出行',
      '花小猪',
      '嘀嗒出行',
      '哈啰',
      '青桔',
      '美团打车',
      '地铁',
      '公交',
      '一卡通',
      '交通卡',
      '12306',
      '铁路',
      '中石化',
      '中石油',
      '加油站',
      '停车',
      'uber',
      'lyft',
      'transport for london',
      'tfl',
      'trainline',
      'national rail',
      'amtrak',
      'metro',
      'parking',
    ],
  ],
  [
    'shopping',
    [
      '淘宝',
      '天猫',
      'taobao',
      'tmall',
      '京东',
      'jd.com',
      '拼多多',
      'pinduoduo',
      '唯品会',
      '苏宁',
      '闲鱼',
      '得物',
      '盒马',
      '沃尔玛',
      'walmart',
      '永辉',
      '家乐福',
      '山姆',
      'costco',
      '宜家',
      'ikea',
      '屈臣氏',
      '便利店',
      '小卖部',
      '书店',
      '超市',
      'amazon',
      '亚马逊',
      'tesco',
      "sainsbury's",
      'sainsbury',
      'aldi',
      'lidl',
      'target',
      'best buy',
      'apple store',
    ],
  ],
  [
    'telecom',
    [
      '中国移动',
      '中国联通',
      '中国电信',
      '移动通信',
      '联通',
      '电信',
      '话费',
      'vodafone',
      'verizon',
      'at&t',
      't-mobile',
      'o2',
    ],
  ],
  [
    'utilities',
    ['国家电网', '电费', '水费', '燃气', '供电', '自来水', 'british gas', 'octopus energy', 'thames water'],
  ],
  [
    'entertainment',
    [
      '爱奇艺',
      '腾讯视频',
      '优酷',
      '哔哩哔哩',
      'bilibili',
      '网易云音乐',
      'qq音乐',
      '猫眼',
      '淘票票',
      '万达影城',
      '电影',
      'ktv',
      'netflix',
      'spotify',
      'steam',
      'disney+',
      'playstation',
      'nintendo',
      'cinema',
    ],
  ],
  ['health', ['大药房', '药房', '药店', '医院', '诊所', '卫生院', 'pharmacy', 'boots', 'walgreens', 'cvs']],
  [
    'travel',
    [
      '携程',
      '飞猪',
      '去哪儿',
      '同程',
      '航空',
      '机票',
      '酒店',
      '如家',
      '汉庭',
      '全季',
      'booking.com',
      'airbnb',
      'expedia',
      'hotel',
      'airlines',
      'airways',
    ],
  ],
  ['housing', ['物业', '房租', '房东', '自如', '链家', '贝壳']],
];

export const foldMerchant = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * every name folded, with its kind and whether it is matched as a whole word only (a Latin name), longest first: the
 * most specific name wins ("美团外卖" before "美团", "uber eats" before "uber")
 */
const NAMES: [string, SpendingClass, boolean][] = MERCHANTS.flatMap(([key, names]) =>
  names.map((n) => {
    const name = foldMerchant(n);
    return [name, CLASSES[key], /^[a-z0-9]/.test(name)] as [string, SpendingClass, boolean];
  }),
).sort((a, b) => b[0].length - a[0].length);

/** Short Latin names match only as whole words ("kfc", not the letters inside another word); Chinese names anywhere. */
function contains(text: string, name: string, wholeWord: boolean): boolean {
  let at = text.indexOf(name);
  if (!wholeWord) return at >= 0;
  while (at >= 0) {
    const before = at === 0 ? '' : text[at - 1]!;
    const after = text[at + name.length] ?? '';
    if (!/[a-z0-9]/.test(before) && !/[a-z0-9]/.test(after)) return true;
    at = text.indexOf(name, at + 1);
  }
  return false;
}

/** The kind of spending of a merchant named in these texts (counterparty first, then the item), or null. */
export function merchantClass(...texts: string[]): SpendingClass | null {
  for (const raw of texts) {
    if (!raw) continue;
    const text = foldMerchant(raw);
    for (const [name, cls, wholeWord] of NAMES) if (contains(text, name, wholeWord)) return cls;
  }
  return null;
}

/**
 * The person's category for a kind of spending: one named for it (their own 通讯 before the
 * default 水电煤), else the default category of its icon; null when they have neither.
 */
export function categoryOfClass<C extends { id: number; name: string; icon: string | null }>(
  cls: SpendingClass,
  categories: readonly C[],
): C | null {
  for (const name of cls.names) {
    const hit = categories.find((c) => foldMerchant(c.name) === name);
    if (hit) return hit;
  }
  return categories.find((c) => c.icon === cls.icon) ?? null;
}
