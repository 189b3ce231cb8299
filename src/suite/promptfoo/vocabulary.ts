// promptfoo's words kbbench meets in suites: the checks it refuses (and what to write instead),
// the ones it maps, and the keys a promptfoo user reaches for. Did-you-mean reads these first, so
// `vars` points at how kbbench takes variables and `cost` at the credits check, not at a look-alike.

/** Check types kbbench does not run, each with why and what to write instead. */
export const REFUSED_CHECKS: Readonly<Record<string, string>> = {
  javascript: 'kbbench runs no code from a suite; write a check kbbench runs (contains, regex, is-json, judge, …)',
  python: 'kbbench runs no code from a suite; write a check kbbench runs (contains, regex, is-json, judge, …)',
  ruby: 'kbbench runs no code from a suite; write a check kbbench runs (contains, regex, is-json, judge, …)',
  fn: 'kbbench runs no code from a suite (fn: is promptfoo\'s inline JavaScript); write a check kbbench runs (contains, regex, is-json, judge, …)',
  webhook: 'kbbench sends nothing but the run\'s own requests and a grader\'s; grade with judge (llm-rubric) or a text check',
  'is-valid-openai-tools-call': 'a chat answer of the service has no tool calls to check',
  'is-valid-openai-function-call': 'a chat answer of the service has no function calls to check',
  'is-valid-function-call': 'a chat answer of the service has no function calls to check',
  'tool-call-f1': 'a chat answer of the service has no tool calls to check',
  'trajectory:tool-used': 'a chat answer of the service has no tool calls to check',
  'is-xml': 'not run by kbbench; use regex or contains on the answer',
  'contains-xml': 'not run by kbbench; use regex or contains on the answer',
  'is-sql': 'not run by kbbench; use regex or contains on the answer',
  'contains-sql': 'not run by kbbench; use regex or contains on the answer',
  'is-html': 'not run by kbbench; use regex or contains on the answer',
  'contains-html': 'not run by kbbench; use regex or contains on the answer',
  'is-refusal': 'not run by kbbench; use judge (llm-rubric) with a rubric saying what a refusal is',
  perplexity: 'the service reports no token log-probabilities',
  'perplexity-score': 'the service reports no token log-probabilities',
  classifier: 'kbbench calls no classifier model; use judge (llm-rubric)',
  moderation: 'kbbench calls no moderation endpoint; use judge (llm-rubric)',
  guardrails: 'kbbench calls no guardrail provider; use judge (llm-rubric)',
  'model-graded-closedqa': 'use judge (llm-rubric) with the question as its rubric',
  'g-eval': 'use judge (llm-rubric)',
  'select-best': 'kbbench grades each answer on its own; compare runs with kbbench compare',
  'max-score': 'kbbench grades each answer on its own; compare runs with kbbench compare',
  bleu: 'not run by kbbench; use similar (embedding or word overlap) or levenshtein',
  'rouge-n': 'not run by kbbench; use similar (embedding or word overlap) or levenshtein',
  meteor: 'not run by kbbench; use similar (embedding or word overlap) or levenshtein',
  gleu: 'not run by kbbench; use similar (embedding or word overlap) or levenshtein',
  'context-relevance': 'not run by kbbench; use context-faithfulness or context-recall',
  'conversation-relevance': 'not run by kbbench; use judge (llm-rubric) on each turn of a thread',
  'pi': 'kbbench calls no Pi scorer; use judge (llm-rubric)',
  'not-cost': 'kbbench has no "costs more than" check; write the credit limit the answer must stay under (cost or max-credits)',
  'not-latency': 'kbbench has no "slower than" check; write the time limit the answer must stay under (latency or max-latency-ms)',
  'finish-reason': 'the service reports no finish reason',
  'is-json-schema': 'kbbench does not validate JSON Schema',
  'trace-span-count': 'the service reports no traces',
  'trace-span-duration': 'the service reports no traces',
  'trace-error-spans': 'the service reports no traces',
  'word-count': 'not run by kbbench; use regex (e.g. ^(\\S+\\s+){0,49}\\S+$ for at most 50 words)',
  'search-rubric': 'kbbench calls no web search; use judge (llm-rubric)',
};

/** Why a check type is refused, or undefined: `not-javascript` is refused as `javascript` is. */
export function refusedCheck(name: string): string | undefined {
  const lower = name.trim().toLowerCase();
  return REFUSED_CHECKS[lower] ?? (lower.startsWith('not-') ? REFUSED_CHECKS[lower.slice(4)] : undefined);
}

/** A hint for a check type a promptfoo user writes that kbbench names otherwise (beats an edit-distance guess). */
export const CHECK_HINTS: Readonly<Record<string, string>> = {
  cost: 'max-credits',
  latency: 'max-latency-ms',
  grade: 'judge',
  'model-graded-factuality': 'factuality',
  'starts_with': 'starts-with',
};

/** promptfoo's keys where kbbench's suite format has its own: what to write instead. */
export const KEY_HINTS: Readonly<Record<string, string>> = {
  vars: 'kbbench takes variables in a promptfoo config (prompts, providers, tests with vars) or as CSV columns used by {{name}}; in a kbbench suite write the prompt out',
  tests: 'a kbbench suite names its questions "cases" (and conversations "threads"); a promptfoo config (prompts, providers, tests) is read as one',
  prompts: 'a promptfoo config needs "tests" beside "prompts"; a kbbench suite writes each case\'s prompt',
  providers: 'a kbbench suite names "models"; the service is the provider',
  defaultTest: 'kbbench suites name "defaults" (request options); defaultTest is read in a promptfoo config',
  transform: 'kbbench checks the answer as the service gave it; transforms run code, which kbbench does not',
  provider: 'a model-graded check is graded by the suite\'s grader (grader:) or its chat_id/model keys',
  evaluateOptions: 'give kbbench\'s run flags instead (--concurrency, --repeat)',
  env: 'kbbench reads its key from KBBENCH_API_KEY or --api-key-file, never from a suite',
  rubricPrompt: 'kbbench\'s judge uses its own grading prompt; put what to judge in the rubric (value)',
};
