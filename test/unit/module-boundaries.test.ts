import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';

/** The layer rules of `house/module-boundaries` (scripts/eslint-boundaries.js), shown on planted files. */

const eslint = new ESLint();
const refusals = async (code: string, filePath: string) => {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'house/module-boundaries').map((m) => m.message);
};

describe('lint: imports run down the layers', () => {
  it('refuses a plugin importing a feature module, even a type or its public face', async () => {
    const found = await refusals(
      `import { identityPlugin } from '../modules/identity/index.ts';\n` +
        `import type { AuthService } from '../modules/identity/auth.service.ts';\n` +
        `export const x: [unknown, AuthService?] = [identityPlugin];\n`,
      'src/plugins/planted.ts',
    );
    assert.equal(found.length, 2, found.join('\n'));
    assert.ok(
      found.every((m) => m.startsWith('src/plugins sits below the feature modules')),
      found.join('\n'),
    );
  });

  it('refuses the database layer importing a plugin or a module', async () => {
    const found = await refusals(
      `import { userOf } from '../plugins/auth.ts';\nimport { setUpNewUser } from '../modules/identity/index.ts';\n` +
        `export const x = [userOf, setUpNewUser];\n`,
      'src/db/planted.ts',
    );
    assert.equal(found.length, 2, found.join('\n'));
    assert.ok(
      found.every((m) => m.startsWith('src/db sits below')),
      found.join('\n'),
    );
  });

  it('lets a plugin import src/lib, other plugins and the database layer, and a module import a plugin', async () => {
    assert.deepEqual(
      await refusals(
        `import { createTokenService } from '../lib/tokens.ts';\nimport { userOf } from './auth.ts';\n` +
          `import type { Db } from '../db/client.ts';\nexport const x: [unknown, unknown, Db?] = [createTokenService, userOf];\n`,
        'src/plugins/planted.ts',
      ),
      [],
    );
    assert.deepEqual(
      await refusals(
        `import { userOf } from '../../plugins/auth.ts';\nexport const x = userOf;\n`,
        'src/modules/somewhere/planted.ts',
      ),
      [],
    );
  });

  it("refuses reaching into another module's files, not its index.ts", async () => {
    const found = await refusals(
      `import { x } from '../identity/auth.repo.ts';\nimport { setUpNewUser } from '../identity/index.ts';\n` +
        `export const y = [x, setUpNewUser];\n`,
      'src/modules/somewhere/planted.ts',
    );
    assert.equal(found.length, 1, found.join('\n'));
    assert.match(found[0]!, /reaches into the identity module/);
  });
});
