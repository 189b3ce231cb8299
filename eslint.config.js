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
    ignores: ['src/cli/**', 'src/server/child-main.ts', 'src/**/*.test.ts'],
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
  // Layering (issue 24): each rule below keeps one fixed leak fixed. Plain no-restricted-imports
  // per folder, not eslint-plugin-boundaries: six rules need no new dependency, and the message
  // says where the code belongs instead.
  {
    files: ['src/checks/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/metrics/**'], message: 'checks/ judges answers; thresholds and gates live in metrics/, which checks/ never imports.' }] }] },
  },
  {
    files: ['src/metrics/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/checks/**'], message: 'metrics/ owns thresholds and gates beside its aggregates (k6); it never imports checks/.' }] }] },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./(?!protocol/)', message: 'domain/ holds shapes: it imports only ../protocol (a shape another folder computes is declared here, e.g. domain/credits.ts).' }] }] },
  },
  {
    files: ['src/merge/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/session/**'], message: 'merge/ builds reports through report/ (buildReports), never through session/, the orchestrator.' }] }] },
  },
  {
    // Whether a directory is a run has one owner: store/run-dir.ts (assertRunDir, holdsRun).
    files: ['src/**/*.ts'],
    ignores: ['src/store/**', 'src/**/*.test.ts', 'src/**/test-support/**'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "CallExpression[callee.name='existsSync'] MemberExpression[object.name='RUN_FILES'][property.name=/^(run|results)$/]",
        message: 'Ask store/run-dir.ts (assertRunDir, holdsRun) whether a directory is a run.',
      }],
    },
  },
  {
    files: ['src/session/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/compare/run-dir*'], message: 'store/run-dir.ts owns whether a directory is a run.' }] }] },
  },
  {
    // A recorded run's selection (--filter, --only-failed) is read through store/run-selection.ts;
    // compare/ reads runs, it never reaches into session/, the orchestrator of a new run.
    files: ['src/compare/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/session/**'], message: 'compare/ never imports session/: what a recorded run selected is store/run-selection.ts.' }] }] },
  },
  {
    // doctor/ is a feature beside the pipeline: it probes a service through client/ alone, never the
    // reference service (an independent party) nor a run's orchestration; only cli/ wires it.
    files: ['src/doctor/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/server/**', '**/session/**', '**/cli/**'], message: 'doctor/ probes a service through client/; it never imports server/, session/ or cli/.' }] }] },
  },
  {
    files: ['src/report/console-*.ts', 'src/report/model-pairs-text.ts', 'src/report/load-words.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/html/**'], message: 'The console shares wording through report/ modules (load-words.ts, model-pairs-text.ts), never report/html/.' }] }] },
  },
);
