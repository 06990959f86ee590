/**
 * What common words and merchants mean, per language: the categories a person with little history
 * would pick for "地铁", "盒马" or "Netflix". A concept names the category by the icon of the
 * default set (every new user has it) and by names people give such a category in either language,
 * so a renamed or hand-made category is still found. `fallback` is the concept to use when the
 * person has no category for this one (话费 goes to 其他 when there is no 通讯).
 */
import type { CategoryKind } from '../domain.ts';

export interface Concept {
  key: string;
  kind: CategoryKind;
  /** icons of the default categories this concept is */
  icons: readonly string[];
  /** category names that mean this concept, lower case, either language */
  names: readonly string[];
  fallback?: string;
  zh: readonly string[];
  en: readonly string[];
}

export const CONCEPTS: readonly Concept[] = [
  {
    key: 'food',
    kind: 'expense',
    icons: ['food'],
    names: ['餐饮', '吃饭', '饮食', '美食', 'food', 'dining', 'food & drink', 'restaurants', 'eating out'],
    zh: [
      '早饭',
      '早餐',
      '早点',
      '午饭',
      '午餐',
      '中饭',
      '晚饭',
      '晚餐',
      '夜宵',
      '宵夜',
      '吃饭',
      '聚餐',
      '外卖',
      '饿了么',
      '美团外卖',
      '咖啡',
      '奶茶',
      '星巴克',
      '瑞幸',
      '喜茶',
      '蜜雪冰城',
      '一点点',
      '麦当劳',
      '肯德基',
      '必胜客',
      '汉堡王',
      '火锅',
      '烧烤',
      '零食',
      '水果',
      '面包',
      '蛋糕',
      '饮料',
      '食堂',
      '包子',
      '面条',
      '米线',
      '快餐',
      '买菜',
      '菜市场',
      '饭',
    ],
    en: [
      'coffee',
      'latte',
      'cappuccino',
      'espresso',
      'tea',
      'lunch',
      'dinner',
      'breakfast',
      'brunch',
      'supper',
      'food',
      'meal',
      'restaurant',
      'cafe',
      'café',
      'starbucks',
      'mcdonalds',
      "mcdonald's",
      'kfc',
      'burger',
      'pizza',
      'sandwich',
      'snack',
      'takeout',
      'takeaway',
      'doordash',
      'ubereats',
      'uber eats',
      'deliveroo',
      'groceries',
      'grocery',
      'bakery',
      'drinks',
      'juice',
    ],
  },
  {
    key: 'transport',
    kind: 'expense',
    icons: ['transport'],
    names: ['交通', '出行', 'transport', 'transportation', 'transit', 'commute'],
    zh: [
      '地铁',
      '公交',
      '公交车',
      '巴士',
      '打车',
      '出租车',
      '的士',
      '滴滴',
      '网约车',
      '快车',
      '专车',
      '曹操出行',
      '高德打车',
      '加油',
      '油费',
      '停车',
      '停车费',
      '过路费',
      '高速费',
      '共享单车',
      '单车',
      '哈啰',
      '青桔',
      '车费',
      '坐车',
      '交通卡',
      '充公交卡',
    ],
    en: [
      'subway',
      'metro',
      'bus',
      'taxi',
      'cab',
      'uber',
      'lyft',
      'didi',
      'fare',
      'subway fare',
      'bus fare',
      'gas',
      'fuel',
      'petrol',
      'parking',
      'toll',
      'commute',
      'tram',
      'oyster',
      'metrocard',
    ],
  },
  {
    key: 'shopping',
    kind: 'expense',
    icons: ['shopping'],
    names: ['购物', '日用', '日用品', 'shopping', 'groceries & shopping'],
    zh: [
      '超市',
      '盒马',
      '淘宝',
      '京东',
      '拼多多',
      '天猫',
      '购物',
      '网购',
      '衣服',
      '裤子',
      '鞋',
      '日用品',
      '沃尔玛',
      '永辉',
      '家乐福',
      '山姆',
      '便利店',
      '全家',
      '罗森',
      '711',
      '7-11',
      '化妆品',
      '唯品会',
      '优衣库',
      '屈臣氏',
    ],
    en: [
      'supermarket',
      'amazon',
      'walmart',
      'target',
      'costco',
      'aldi',
      'lidl',
      'tesco',
      'shopping',
      'clothes',
      'shoes',
      'shirt',
      'mall',
      'store',
      'taobao',
      'uniqlo',
      'h&m',
      'zara',
    ],
  },
  {
    key: 'housing',
    kind: 'expense',
    icons: ['housing'],
    names: ['住房', '居住', '房租', 'housing', 'home', 'rent'],
    zh: ['房租', '租金', '房贷', '物业', '物业费', '家具', '装修', '宜家', '维修'],
    en: ['rent', 'mortgage', 'furniture', 'ikea', 'repair', 'repairs', 'plumber'],
  },
  {
    key: 'utilities',
    kind: 'expense',
    icons: ['utilities'],
    names: ['水电煤', '水电', '生活缴费', 'utilities', 'bills'],
    zh: ['水费', '电费', '燃气', '燃气费', '煤气', '煤气费', '暖气', '暖气费', '网费', '宽带', '水电'],
    en: [
      'electricity',
      'electric bill',
      'water bill',
      'gas bill',
      'utilities',
      'internet',
      'broadband',
      'heating',
      'wifi',
    ],
  },
  {
    key: 'telecom',
    kind: 'expense',
    icons: [],
    names: ['通讯', '通信', '话费', '手机', 'phone', 'telecom', 'mobile', 'communication'],
    fallback: 'other',
    zh: ['话费', '手机费', '充话费', '流量', '流量包', '移动', '联通', '电信', '手机套餐'],
    en: ['phone bill', 'mobile plan', 'data plan', 'top-up', 'top up', 'sim', 'verizon', 't-mobile', 'vodafone'],
  },
  {
    key: 'entertainment',
    kind: 'expense',
    icons: ['entertainment'],
    names: ['娱乐', '休闲', '休闲娱乐', 'entertainment', 'fun', 'leisure'],
    zh: [
      '电影',
      '电影票',
      '看电影',
      '游戏',
      'ktv',
      '唱歌',
      '演唱会',
      '话剧',
      '酒吧',
      '爱奇艺',
      '腾讯视频',
      '优酷',
      'b站',
      '大会员',
      '会员',
      '健身',
      '健身房',
      '剧本杀',
      '密室',
      '桌游',
      'netflix',
      'steam',
    ],
    en: [
      'netflix',
      'spotify',
      'movie',
      'movies',
      'cinema',
      'film',
      'game',
      'games',
      'steam',
      'playstation',
      'xbox',
      'nintendo',
      'concert',
      'theatre',
      'theater',
      'bar',
      'pub',
      'karaoke',
      'gym',
      'youtube premium',
      'disney+',
      'hbo',
      'museum',
    ],
  },
  {
    key: 'health',
    kind: 'expense',
    icons: ['health'],
    names: ['医疗', '医药', '健康', 'health', 'medical', 'healthcare'],
    zh: ['医院', '看病', '药', '药店', '买药', '挂号', '体检', '牙医', '门诊', '医药'],
    en: ['doctor', 'hospital', 'pharmacy', 'medicine', 'dentist', 'clinic', 'drugstore', 'prescription', 'checkup'],
  },
  {
    key: 'education',
    kind: 'expense',
    icons: ['education'],
    names: ['教育', '学习', 'education', 'learning', 'school'],
    zh: ['学费', '买书', '书', '课程', '培训', '网课', '教材', '考试', '报名费'],
    en: ['tuition', 'book', 'books', 'course', 'class', 'textbook', 'udemy', 'coursera', 'exam', 'school fees'],
  },
  {
    key: 'travel',
    kind: 'expense',
    icons: ['travel'],
    names: ['旅行', '旅游', 'travel', 'trips', 'holiday', 'vacation'],
    zh: [
      '机票',
      '酒店',
      '住宿',
      '旅游',
      '旅行',
      '高铁',
      '动车',
      '火车票',
      '火车',
      '飞机',
      '携程',
      '飞猪',
      '去哪儿',
      '景点',
      '门票',
      '民宿',
    ],
    en: [
      'flight',
      'flights',
      'hotel',
      'airbnb',
      'trip',
      'travel',
      'train ticket',
      'airfare',
      'hostel',
      'booking.com',
      'expedia',
    ],
  },
  {
    key: 'salary',
    kind: 'income',
    icons: ['salary'],
    names: ['工资', '薪水', '薪资', 'salary', 'wages', 'paycheck'],
    zh: ['工资', '薪水', '薪资', '月薪', '发工资'],
    en: ['salary', 'paycheck', 'wage', 'wages', 'payroll'],
  },
  {
    key: 'bonus',
    kind: 'income',
    icons: ['bonus'],
    names: ['奖金', 'bonus'],
    zh: ['奖金', '年终奖', '绩效', '提成'],
    en: ['bonus', 'commission'],
  },
  {
    key: 'investment',
    kind: 'income',
    icons: ['investment'],
    names: ['理财', '投资', '理财收益', 'investment', 'investments', 'interest'],
    zh: ['理财', '利息', '分红', '股息', '基金收益', '收益', '余额宝收益'],
    en: ['interest', 'dividend', 'dividends', 'investment'],
  },
  {
    key: 'parttime',
    kind: 'income',
    icons: ['parttime'],
    names: ['兼职', '副业', 'part-time', 'side job', 'freelance'],
    zh: ['兼职', '外快', '稿费', '副业', '接单'],
    en: ['freelance', 'side gig', 'gig', 'part-time', 'part time', 'tutoring'],
  },
  {
    key: 'other',
    kind: 'expense',
    icons: ['other'],
    names: ['其他', '其它', 'other', 'misc', 'miscellaneous'],
    zh: [],
    en: [],
  },
  {
    key: 'other_income',
    kind: 'income',
    icons: ['other'],
    names: ['其他收入', '其它收入', 'other income'],
    zh: ['报销'],
    en: ['reimbursement', 'reimbursed'],
  },
];

const BY_KEY = new Map(CONCEPTS.map((c) => [c.key, c]));

export function conceptByKey(key: string): Concept | undefined {
  return BY_KEY.get(key);
}

export interface ConceptHit {
  concept: Concept;
  /** the word that matched, as found in the text */
  word: string;
  start: number;
  end: number;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const HAS_LATIN = /[a-z]/;

interface Entry {
  word: string;
  concept: Concept;
  re: RegExp;
}

/**
 * Every word, longest first, each with the pattern that finds it: Latin words only as whole words (an -s or -es plural
 * too).
 */
const ENTRIES: Entry[] = CONCEPTS.flatMap((concept) =>
  [...concept.zh, ...concept.en].map((word) => ({
    word,
    concept,
    re: HAS_LATIN.test(word)
      ? new RegExp(`(?<![a-z0-9])${escape(word)}(?:e?s)?(?![a-z0-9])`, 'g')
      : new RegExp(escape(word), 'g'),
  })),
).sort((a, b) => b.word.length - a.word.length);

/**
 * The concepts the text (lower-cased, NFKC-folded) speaks of, by the longest words first, without
 * overlaps; in the order they appear.
 */
export function findConcepts(text: string): ConceptHit[] {
  const out: ConceptHit[] = [];
  for (const e of ENTRIES) {
    e.re.lastIndex = 0;
    for (let m = e.re.exec(text); m; m = e.re.exec(text)) {
      const start = m.index;
      const end = start + m[0].length;
      if (out.some((h) => start < h.end && h.start < end)) continue;
      out.push({ concept: e.concept, word: m[0], start, end });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The best concept of a note: the one its longest word names; null when no word is known. */
export function conceptOf(note: string): Concept | null {
  const hits = findConcepts(note.normalize('NFKC').toLowerCase());
  if (!hits.length) return null;
  return hits.reduce((best, h) => (h.end - h.start > best.end - best.start ? h : best)).concept;
}

export interface CategoryLike {
  id: number;
  name: string;
  kind: CategoryKind;
  icon?: string | null;
}

/**
 * The person's category for a concept: one named as the concept is (a name they chose wins), else
 * the default category with its icon, else the fallback concept's; null when they have none.
 */
export function categoryForConcept<C extends CategoryLike>(concept: Concept, categories: readonly C[]): C | null {
  for (
    let c: Concept | undefined = concept, depth = 0;
    c && depth < 3;
    c = c.fallback ? BY_KEY.get(c.fallback) : undefined, depth++
  ) {
    const ofKind = categories.filter((x) => x.kind === c!.kind);
    const named = ofKind.find((x) => c!.names.includes(x.name.normalize('NFKC').trim().toLowerCase()));
    if (named) return named;
    const iconed = ofKind.find((x) => x.icon && c!.icons.includes(x.icon));
    if (iconed) return iconed;
  }
  return null;
}
