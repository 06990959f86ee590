import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

/** The linter keeps the books' one writer: writes of its tables anywhere else under src/ fail `npm run lint`. */

const PLANTED = `
import { sql } from 'drizzle-orm';
import * as schema from '../../db/schema/index.ts';
import { transactions, transactionTags, transactionShares } from '../../db/schema/index.ts';
export async function planted(db: any) {
  await db.insert(transactions).values([]);
  await db.update(transactionTags).set({});
  await db.delete(transactionShares);
  await db.delete(schema.transactions);
  await db.execute(sql\`insert into transactions (id) values (1)\`);
  await db.execute(sql\`UPDATE transaction_tags set tag_id = 1\`);
  await db.execute(sql.raw('delete from transaction_shares'));
}
`;

const ALLOWED = `
import { sql } from 'drizzle-orm';
import { transactions } from '../../db/schema/index.ts';
export async function reads(db: any) {
  await db.select().from(transactions);
  await db.execute(sql\`select 1 from transactions\`);
  await db.execute(sql\`update import_session_rows r set x = 1 from transactions t where r.id = t.id\`);
}
`;

const INTERNAL = `
import { insertRow } from '../books/books.writer.ts';
import { writeManual } from '../books/books.manual.ts';
import { write } from '../books/index.ts';
export const used = [insertRow, writeManual, write];
`;

/** The statements behind the one entry point, none of which another module may reach. */
const WRITE_HELPERS = [
  'insertRow',
  'insertRows',
  'insertSelected',
  'insertChecked',
  'checkedInsert',
  'createInsertBatcher',
  'updateRow',
  'deleteRow',
  'replaceTags',
  'replaceShares',
  'linkTags',
  'linkTagsToAll',
  'moveCategory',
  'mergeAccountRows',
  'detachGroupRows',
  'writeDraft',
  'writeManual',
  'writeForeign',
  'writeOriginal',
  'adoptImported',
];

const writerMessages = async (code: string, filePath: string) => {
  const [result] = await new ESLint().lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax');
};

describe('lint: the books have one writer', () => {
  it('refuses every Drizzle and raw SQL write of the books outside src/modules/books', async () => {
    const found = await writerMessages(PLANTED, 'src/modules/somewhere/planted.ts');
    assert.deepEqual(
      found.map((m) => m.line),
      [6, 7, 8, 9, 10, 11, 12],
    );
    assert.match(found[0]!.message, /src\/modules\/books/);
  });

  it('lets reads through, and lets the books write', async () => {
    assert.deepEqual(await writerMessages(ALLOWED, 'src/modules/somewhere/reads.ts'), []);
    assert.deepEqual(await writerMessages(PLANTED, 'src/modules/books/books.writer.ts'), []);
  });

  it('lets other modules reach the books only through write(): no write helper is exported, none imported past index.ts', async () => {
    const books = await import('../src/modules/books/index.ts');
    assert.equal(typeof books.write, 'function');
    assert.deepEqual(
      WRITE_HELPERS.filter((name) => name in books),
      [],
    );
    const [result] = await new ESLint().lintText(INTERNAL, { filePath: 'src/modules/somewhere/reach.ts' });
    const refused = result!.messages.filter((m) => m.ruleId === 'house/module-boundaries').map((m) => m.line);
    assert.deepEqual(refused, [2, 3]);
  });
});
