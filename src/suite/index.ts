// The suite package: reads YAML and CSV suite files into validated Suites.
export { loadSuite, loadSuites, parseSuite, suiteFormatOf, type SuiteFormat } from './load.js';
export { SuiteError, formatField, type PathIssue } from './suite-error.js';
export { parseAssertion, parseAssertionCell, resolveCheckType, CHECK_ALIASES, DEFAULT_SIMILAR_MIN } from './assertion.js';
export { REQUEST_OPTION_KEYS } from './primitives.js';
export { CSV_COLUMNS } from './csv-records.js';
