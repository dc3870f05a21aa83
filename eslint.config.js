import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '**/test-results/**',
      '**/playwright-report/**',
      'e2e/artifacts/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Layering (ARCHITECTURE.md): routes never reach into the data or storage layers.
    files: ['server/src/routes/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['**/repositories/**', '**/db/**', '**/storage/**', '**/vfs/**'] },
      ],
    },
  },
  {
    files: ['server/src/services/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['hono', 'hono/*'] }] },
  },
  {
    // A fixed sleep is too short on a busy machine and wasted on a quiet one: wait for a condition
    // (e2e/support/settle.ts, expect.poll, locator waits, page.clock for the page's own timers).
    files: ['e2e/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='waitForTimeout']",
          message: 'Wait for a condition instead (e2e/support/settle.ts, expect.poll, page.clock).',
        },
      ],
    },
  },
);
