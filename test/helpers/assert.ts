import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';

/** The answer is the contract's error: this HTTP status and numeric code. */
export function assertError(res: LightMyRequestResponse, status: number, code: number, label = ''): void {
  assert.equal(res.statusCode, status, `${label} ${res.body}`);
  assert.equal(res.json().code, code, `${label} ${res.body}`);
}

/** The answer has this status (200 unless told); returns its JSON body. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function expectOk<T = any>(res: LightMyRequestResponse, status = 200, label = ''): T {
  assert.equal(res.statusCode, status, `${label} ${res.body}`);
  return res.json<T>();
}
