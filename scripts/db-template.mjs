// `npm run db:template`, after every install, and before the tests when a migration is new: builds
// the embedded database template of this installation (see src/db/embedded-template.ts). Never
// fails an install: without a template a fresh database is only slower to create. Loads the
// TypeScript through tsx when it is installed (a development install), else the compiled dist/ (a
// production install without dev dependencies).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
try {
  let mod;
  try {
    const { register } = await import('tsx/esm/api');
    register();
    mod = await import(pathToFileURL(path.join(root, 'src/db/embedded-template.ts')).href);
  } catch (err) {
    const compiled = path.join(root, 'dist/db/embedded-template.js');
    if (!existsSync(compiled)) throw new Error(`neither tsx nor dist/ is available (${err.message})`, { cause: err });
    mod = await import(pathToFileURL(compiled).href);
  }
  // --if-missing (the test runner): only when this installation's migrations have no template yet
  const built = existsSync(mod.templatePath()) && existsSync(mod.blankTemplatePath());
  if (process.argv.includes('--if-missing') && built) process.exit(0);
  const file = await mod.writeTemplate();
  console.log(`embedded database template: ${file} (${Date.now() - started} ms)`);
} catch (err) {
  console.warn(`could not build the embedded database template (fresh databases start slower): ${err.message}`);
}
