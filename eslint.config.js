// Lint rules: typescript-eslint's recommended set, plus the habits ARCHITECTURE.md asks for.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'reports/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-properties': ['error', { object: 'Date', property: 'now', message: 'Use the monotonic clock (performance.now / process.hrtime.bigint).' }],
    },
  },
  {
    // Only cli/ may touch stdout, argv and exit codes.
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**', 'src/server/main.ts', 'src/**/*.test.ts'],
    rules: { 'no-console': 'error', 'no-restricted-globals': ['error', { name: 'process', message: 'Only cli/ touches process; pass what you need in.' }] },
  },
  {
    // The reference service is an independent party: it shares only protocol types with the harness.
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./(?!protocol/)', message: 'server/ may import only ../protocol of ours.' }] }],
    },
  },
  {
    files: ['src/client/**/*.ts', 'src/runner/**/*.ts', 'src/protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/server/**', '**/cli/**'], message: 'client/ and runner/ never import the reference service or the CLI.' }] }],
    },
  },
);
