/**
 * Numbers as people type them in one line: Arabic digits (full-width ones are folded before),
 * Chinese numerals (一百零五, 两千三, 三万五), and money in yuan, jiao and fen (两块五, 三毛,
 * 十二块八毛五). Every amount is integer minor units (hundredths), never a float sum.
 */

const DIGITS: Record<string, number> = {
  零: 0,
  〇: 0,
  一: 1,
  壹: 1,
  二: 2,
  两: 2,
  俩: 2,
  贰: 2,
  三: 3,
  叁: 3,
  四: 4,
  肆: 4,
  五: 5,
  伍: 5,
  六: 6,
  陆: 6,
  七: 7,
  柒: 7,
  八: 8,
  捌: 8,
  九: 9,
  玖: 9,
};
const SMALL_UNITS: Record<string, number> = { 十: 10, 拾: 10, 百: 100, 佰: 100, 千: 1000, 仟: 1000 };
const BIG_UNITS: Record<string, number> = { 万: 10_000, 亿: 100_000_000 };

/** The characters a Chinese numeral is written with. */
export const CN_NUMERAL_CHARS = '零〇一壹二两俩贰三叁四肆五伍六陆七柒八捌九玖十拾百佰千仟万亿';

/**
 * A Chinese integer: 十五 = 15, 一百零五 = 105, 两千三 = 2300 (a digit right after a unit counts
 * one place lower, as people say it), 三万五 = 35000. Null when it is not a well-formed numeral
 * (two digits in a row, a unit twice in a row).
 */
export function parseChineseInteger(text: string): number | null {
  if (!text) return null;
  let total = 0;
  let section = 0;
  let digit: number | null = null;
  /** the unit just read, when a bare digit right after it counts one place lower */
  let lastUnit = 0;
  let sawZero = false;
  let prev: 'digit' | 'unit' | 'zero' | null = null;
  for (const ch of text) {
    if (ch in DIGITS) {
      const v = DIGITS[ch]!;
      if (v === 0) {
        sawZero = true;
        prev = 'zero';
        continue;
      }
      if (prev === 'digit') return null;
      digit = v;
      prev = 'digit';
    } else if (ch in SMALL_UNITS) {
      const u = SMALL_UNITS[ch]!;
      if (prev === 'unit' && u >= lastUnit) return null;
      // 十 alone starts at one ten (十五 = 15); 百 without a digit is not a number people write
      if (digit === null && u !== 10) return null;
      section += (digit ?? 1) * u;
      digit = null;
      lastUnit = u;
      sawZero = false;
      prev = 'unit';
    } else if (ch in BIG_UNITS) {
      const u = BIG_UNITS[ch]!;
      if (digit === null && section === 0 && total === 0) return null;
      section += digit ?? 0;
      // 一亿两千万: the ten-thousands under a hundred million add to it
      total = u === 10_000 && total >= 100_000_000 ? total + section * u : (total + section) * u;
      section = 0;
      digit = null;
      lastUnit = u;
      sawZero = false;
      prev = 'unit';
    } else {
      return null;
    }
  }
  if (digit !== null) {
    // 两千三 = 2300, 三万五 = 35000; 一百零五 = 105 (a zero keeps the digit in the ones)
    section += prev === 'digit' && lastUnit > 10 && !sawZero && text.length > 1 ? digit * (lastUnit / 10) : digit;
  }
  return total + section;
}

/** A number written either way: "32", "4.5" (kept as a decimal text) or a Chinese integer. */
export interface Decimal {
  /** all digits, without the point */
  digits: bigint;
  /** how many of them are after the point */
  scale: number;
}

export function readDecimal(text: string): Decimal | null {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (m) return { digits: BigInt(m[1]! + (m[2] ?? '')), scale: (m[2] ?? '').length };
  const n = parseChineseInteger(text);
  return n === null ? null : { digits: BigInt(n), scale: 0 };
}

/** `d × multiplier` in hundredths; null when that leaves a fraction of a hundredth. */
export function toHundredths(d: Decimal, multiplier = 1): number | null {
  const scaled = d.digits * BigInt(multiplier) * 100n;
  const den = 10n ** BigInt(d.scale);
  if (scaled % den !== 0n) return null;
  const v = scaled / den;
  return v > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(v);
}
