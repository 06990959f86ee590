import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normalizeUsername, usernameProblem } from '../../src/lib/usernames.ts';

describe('usernames', () => {
  it('accepts letters of any one script, 0-9, "_", "." and "-"', () => {
    for (const name of [
      'alice',
      'bob_1.x-y',
      '王小明',
      '李雷',
      'すずき太郎',
      '王xiaoming',
      'Ирина',
      'Σοφία',
      'élodie',
      'a'.repeat(32),
      '王'.repeat(32),
    ]) {
      assert.equal(usernameProblem(normalizeUsername(name)), null, name);
    }
  });

  it('reads full-width letters and digits as their plain forms (NFKC)', () => {
    assert.equal(normalizeUsername('ｗａｎｇ１２３'), 'wang123');
    assert.equal(normalizeUsername('  王小明 '), '王小明');
  });

  it('refuses what is too short or too long: 3 characters, or 2 with letters outside A-Z', () => {
    for (const name of ['ab', 'x', '王', 'a'.repeat(33), '王'.repeat(33)])
      assert.equal(usernameProblem(name), 'length', name);
    assert.equal(usernameProblem('王明'), null);
  });

  it('refuses spaces, punctuation, symbols, combining marks and digits of other scripts', () => {
    for (const name of ['wang xiaoming', 'bob!', 'a@b.c', '王小明😀', 'e\u0301cole', '١٢٣abc', 'bob\u200b'])
      assert.equal(usernameProblem(name), 'characters', name);
  });

  it('refuses Latin, Cyrillic and Greek letters mixed in one name (look-alikes)', () => {
    // "pаypal" with a Cyrillic а; "bοb" with a Greek ο; "Ирина" with a Latin a
    for (const name of ['p\u0430ypal', 'b\u03bfb', '\u0418рин\u0061', 'αbc'])
      assert.equal(usernameProblem(name), 'mixed_scripts', name);
  });
});
