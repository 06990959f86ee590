import { describe, expect, it } from 'vitest';
import { ApiError, ClientError } from '../api/client';
import { errorMessage, KNOWN_CODES, KNOWN_FIELDS, missingRateOf, USERNAME_REASONS } from './errors';
import { messages } from '../i18n/catalogues';
import en from '../i18n/en';
import zhCN from '../i18n/zh-CN';

type Tree = { [k: string]: string | Tree };
function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

describe('the error catalogue', () => {
  it('answers from the code, never with the server text', () => {
    const err = new ApiError(422, { code: 42201, message: 'pass migrate_to to move its transactions' });
    const m = errorMessage(err);
    expect(m.key).toBe('errors.42201');
    expect(JSON.stringify(m)).not.toContain('migrate_to');
  });

  it('says why a username was refused, in both languages', () => {
    for (const reason of USERNAME_REASONS) {
      const err = new ApiError(400, {
        code: 40001,
        message: 'x',
        details: [{ field: 'username', message: 'bad' }],
        reason,
      });
      const m = errorMessage(err);
      expect(m.key).toBe(`errors.username.${reason}`);
      expect(lookup(en as Tree, m.key)).toBeTruthy();
      expect(lookup(zhCN as Tree, m.key)).toBeTruthy();
    }
    // without a reason (an older server): the field is named
    const plain = new ApiError(400, { code: 40001, message: 'x', details: [{ field: 'username', message: 'bad' }] });
    expect(errorMessage(plain).key).toBe('errors.invalidField');
  });

  it('names the field of a validation failure', () => {
    const err = new ApiError(400, {
      code: 40001,
      message: 'x',
      details: [{ field: 'amount', message: 'must be > 0' }],
    });
    expect(errorMessage(err)).toEqual({ key: 'errors.invalidField', params: { field: 'fields.amount' } });
    const nested = new ApiError(400, {
      code: 40001,
      message: 'x',
      details: [{ field: 'criteria.min_amount', message: 'bad' }],
    });
    expect(errorMessage(nested).params.field).toBe('fields.min_amount');
    const unknown = new ApiError(400, { code: 40001, message: 'x', details: [{ field: 'weird', message: 'bad' }] });
    expect(errorMessage(unknown).params.field).toBe('fields.other');
    expect(errorMessage(new ApiError(400, { code: 40001, message: 'malformed JSON' })).key).toBe('errors.40001');
  });

  it('falls back without leaking anything for unknown answers', () => {
    expect(errorMessage(new ApiError(502, '<html>bad gateway</html>')).key).toBe('errors.50001');
    expect(errorMessage(new ApiError(418, { message: 'teapot' }))).toEqual({
      key: 'errors.unknown',
      params: { status: 418 },
    });
    expect(errorMessage(new TypeError('Failed to fetch')).key).toBe('errors.network');
    expect(errorMessage(new ClientError('errors.importType')).key).toBe('errors.importType');
  });

  it('has a message in both languages for every code and every field', () => {
    for (const tree of [en, zhCN] as Tree[]) {
      for (const code of KNOWN_CODES) expect(lookup(tree, `errors.${code}`), String(code)).toBeTruthy();
      for (const field of [...KNOWN_FIELDS, 'other']) expect(lookup(tree, `fields.${field}`), field).toBeTruthy();
    }
  });

  it('names a missing exchange rate in plain words, in both languages', () => {
    const body = {
      code: 40001,
      message: 'rate is needed',
      details: [{ field: 'rate', message: 'is needed' }],
      missing_rate: { currency: 'USD', base: 'CNY', date: '2026-03-01' },
    };
    const m = errorMessage(new ApiError(400, body));
    expect(m).toEqual({ key: 'errors.missingRate', params: { currency: 'USD', base: 'CNY', date: '2026-03-01' } });
    for (const tree of [messages.en, messages['zh-CN']] as Tree[]) {
      const text = lookup(tree, m.key) ?? '';
      for (const p of ['{currency}', '{base}', '{date}']) expect(text).toContain(p);
    }
    // a malformed one is only a field error, never shown as is
    expect(
      missingRateOf(new ApiError(400, { ...body, missing_rate: { currency: '<b>', base: 'CNY', date: 'x' } })),
    ).toBeNull();
    expect(errorMessage(new ApiError(400, { ...body, missing_rate: undefined })).key).toBe('errors.invalidField');
  });
});
