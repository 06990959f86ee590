// Builds the embedded database template of this installation (see src/db/embedded-template.ts).
// Never fails an install: without a template a fresh database is only slower to create.
import { writeTemplate } from '../src/db/embedded-template.ts';

const started = Date.now();
try {
  const file = await writeTemplate();
  console.log(`embedded database template: ${file} (${Date.now() - started} ms)`);
} catch (err) {
  console.warn(`could not build the embedded database template (fresh databases start slower): ${(err as Error).message}`);
}
