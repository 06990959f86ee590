// Browser test files run two at a time, each with servers of its own: no two files may listen on the
// same port, or one file's browser would talk to the other's server (the harness's check before a
// start cannot see a server that starts at the same moment).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const dir = new URL('../e2e/', import.meta.url);

/** The ports a browser test file listens on: its PORT constants, the ports it names, and PORT + n. */
function portsOf(text: string): number[] {
  const ports = new Set<number>();
  const named = new Map<string, number>();
  for (const m of text.matchAll(/const (\w*PORT\w*) = (\d{4,5});/g)) {
    named.set(m[1]!, Number(m[2]));
    ports.add(Number(m[2]));
  }
  for (const m of text.matchAll(/serverAndBrowser\((\d{4,5})/g)) ports.add(Number(m[1]));
  for (const m of text.matchAll(/\b(\w*PORT\w*) \+ (\d+)/g)) {
    const base = named.get(m[1]!);
    if (base !== undefined) ports.add(base + Number(m[2]));
  }
  return [...ports];
}

describe('browser test ports', () => {
  it('are never shared by two files', () => {
    const owner = new Map<number, string>();
    const clashes: string[] = [];
    const files = readdirSync(dir).filter((f) => f.endsWith('.e2e.ts'));
    assert.ok(files.length > 10, 'the browser tests are found');
    for (const file of files) {
      for (const port of portsOf(readFileSync(new URL(file, dir), 'utf8'))) {
        const other = owner.get(port);
        if (other && other !== file) clashes.push(`${port}: ${other} and ${file}`);
        owner.set(port, file);
      }
    }
    assert.deepEqual(clashes, []);
  });

  it('are read from the forms the files use', () => {
    const text = 'const PORT = 3296;\nconst live = serverAndBrowser(3110);\nscenario(ZH, PORT + 1, {});';
    assert.deepEqual(portsOf(text).sort(), [3110, 3296, 3297]);
  });
});
