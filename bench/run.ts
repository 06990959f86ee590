// npm run bench [-- name ...]: runs the named benchmarks (all by default) and prints their figures as JSON.
const all = [
  'foundation',
  'books',
  'export-import',
  'bill-import',
  'import-formats',
  'startup',
  'accounts',
  'splits',
  'offline',
  'web-throttled',
  'receipts',
] as const;
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : [...all];
for (const name of chosen) {
  const mod = await import(`./${name}.ts`).catch((err) => {
    console.error(`no benchmark "${name}": ${err.message}`);
    process.exit(1);
  });
  console.error(`running ${name}...`);
  const result = await mod.run();
  console.log(JSON.stringify({ [name]: result }, null, 2));
}
