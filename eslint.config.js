import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from './scripts/eslint-boundaries.js';

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'data',
      'dist',
      'migrations',
      'web/dist',
      'web/dist-server',
      'web/src/api/schema.d.ts',
      'coverage',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        document: 'readonly',
        window: 'readonly',
        localStorage: 'readonly',
        location: 'readonly',
        FormData: 'readonly',
        Blob: 'readonly',
        history: 'readonly',
        alert: 'readonly',
        confirm: 'readonly',
        navigator: 'readonly',
        AbortController: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        queueMicrotask: 'readonly',
        structuredClone: 'readonly',
        performance: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
      // lines of at most 120 columns: Prettier wraps the code, comments are wrapped by hand; a line
      // holding a string or template literal (OpenAPI descriptions, test titles, SQL, messages) is let
      // through, since cutting each of those would make them harder to read and search for
      'max-len': [
        'error',
        {
          code: 120,
          ignoreUrls: true,
          ignoreRegExpLiterals: true,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
        },
      ],
    },
  },
  {
    // the books have one writer: only src/modules/books writes transactions and their tags and shares
    files: ['src/**/*.ts'],
    ignores: ['src/modules/books/**', 'src/db/schema/**'],
    rules: {
      'no-restricted-syntax': ['error', ...booksWriterOnly()],
    },
  },
  {
    // a function a reader takes in at once: services are maps of named use cases, route registrars
    // one function per feature area; a longer function says why on the line above it
    files: ['src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // the house rules (docs/architecture.md): modules through their index.ts, a pure lib/
    files: ['src/**/*.ts'],
    plugins: { house: boundaries },
    rules: { 'house/module-boundaries': 'error' },
  },
  {
    // the web client shares server code only through the pure src/lib/
    files: ['web/src/**/*.ts'],
    plugins: { house: boundaries },
    rules: { 'house/module-boundaries': 'error' },
  },
);

/** Drizzle calls and raw SQL (template or string) that write the tables of the books. */
function booksWriterOnly() {
  const message =
    'Only src/modules/books writes transactions, transaction_tags and transaction_shares: build a draft and call the books writer (src/modules/books/index.ts).';
  const statement =
    '/(insert\\s+into|update|delete\\s+from)\\s+"?(transactions|transaction_tags|transaction_shares)\\b/i';
  return [
    {
      selector:
        'CallExpression[callee.property.name=/^(insert|update|delete)$/][arguments.0.name=/^(transactions|transactionTags|transactionShares)$/]',
      message,
    },
    {
      selector:
        'CallExpression[callee.property.name=/^(insert|update|delete)$/][arguments.0.property.name=/^(transactions|transactionTags|transactionShares)$/]',
      message,
    },
    { selector: `TemplateElement[value.raw=${statement}]`, message },
    { selector: `Literal[value=${statement}]`, message },
  ];
}
