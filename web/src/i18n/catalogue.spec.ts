// Both languages have the same keys, and every key the sources use exists.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { messages, type Tree } from './catalogues';

const en = messages.en;
const zhCN = messages['zh-CN'];
function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`),
  );
}
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(vue|ts)$/.test(name) && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts') ? [full] : [];
  });
}

describe('the message catalogues', () => {
  const enKeys = keys(en as Tree).sort();
  const zhKeys = keys(zhCN as Tree).sort();

  it('have the same keys in Chinese and English', () => {
    expect(zhKeys).toEqual(enKeys);
  });

  it('hold every key the client uses', () => {
    const all = new Set(enKeys);
    const used = new Set<string>();
    for (const file of sources(path.resolve(__dirname, '..'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bt\(\s*'([a-zA-Z]+\.[\w.]+)'/g)) used.add(m[1]!);
      for (const m of text.matchAll(/\bt\(\s*\w[\w.?]*\s*\?\s*'([\w.]+)'\s*:\s*'([\w.]+)'/g))
        used.add(m[1]!).add(m[2]!);
      for (const m of text.matchAll(/(?:title|ClientError\()\s*:?\s*'((?:nav|signin|errors)\.[\w.]+)'/g))
        used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(200);
    expect([...used].filter((k) => !all.has(k))).toEqual([]);
  });

  // names of products, file formats and standards, written as their makers write them in Chinese text too
  const NAMES = new Set(
    [
      'Actual Budget ezBookkeeping Firefly III YNAB OFX QFX QIF ISO camt MT XLS XLSX TSV PDF IBAN',
      'Quicken GnuCash SWIFT Splitwise Spliit',
    ]
      .join(' ')
      .split(' '),
  );

  it('have no empty message and no English left in Chinese prose', () => {
    for (const key of zhKeys) {
      const zh = key.split('.').reduce<unknown>((n, p) => (n as Tree)[p], zhCN) as string;
      expect(zh.trim(), key).not.toBe('');
      const words = (zh.replace(/\{\w+\}/g, '').match(/[A-Za-z]{2,}/g) ?? []).filter(
        (w) => !['CSV', 'JSON', 'Excel', 'MB', 'https', 'http', 'backup', 'restore'].includes(w) && !NAMES.has(w),
      );
      expect(words, key).toEqual([]);
    }
  });
});
