import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDatabaseUnavailable } from '../../src/db/errors.ts';

/** an error shaped as node-postgres reports a server's refusal, optionally wrapped as Drizzle does */
function pgError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: 'FATAL' });
}

describe('database errors that mean "retry later"', () => {
  it('counts a database that refuses connections as unavailable', () => {
    const refusals = [
      pgError('55000', 'database "ledger" is not currently accepting connections'),
      pgError('57P03', 'the database system is starting up'),
      pgError('57P03', 'the database system is in recovery mode'),
      pgError('53300', 'sorry, too many clients already'),
      pgError('53300', 'remaining connection slots are reserved for non-replication superuser connections'),
      pgError('57P01', 'terminating connection due to administrator command'),
    ];
    for (const err of refusals) {
      assert.equal(isDatabaseUnavailable(err), true, err.message);
      assert.equal(
        isDatabaseUnavailable(new Error('Failed query: select 1', { cause: err })),
        true,
        `wrapped: ${err.message}`,
      );
    }
  });

  it('does not count ordinary statement errors, 55000 ones included, as an outage', () => {
    const ordinary = [
      pgError('55000', 'cannot lock rows in materialized view "x"'),
      pgError('55000', 'prepared transaction belongs to another database'),
      pgError('23505', 'duplicate key value violates unique constraint "x"'),
      pgError('42P01', 'relation "x" does not exist'),
      new Error('something else'),
    ];
    for (const err of ordinary) assert.equal(isDatabaseUnavailable(err), false, err.message);
  });
});
