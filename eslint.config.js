import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules', 'data', 'dist', 'migrations', 'web/dist', 'web/src/api/schema.d.ts', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', fetch: 'readonly', document: 'readonly', window: 'readonly', localStorage: 'readonly', location: 'readonly', FormData: 'readonly', Blob: 'readonly', history: 'readonly', alert: 'readonly', confirm: 'readonly', navigator: 'readonly', AbortController: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', queueMicrotask: 'readonly', structuredClone: 'readonly', performance: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
);
