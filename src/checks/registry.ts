// The assertion registry: one handler per check type, looked up by the spec's `type`.
import type { CheckResult } from '../domain/sample.js';
import type { CheckSpec } from '../domain/suite.js';
import { answerRelevanceCheck, contextFaithfulnessCheck, contextRecallCheck, factualityCheck, judgeCheck } from './judge.js';
import { containsJsonCheck, isJsonCheck, notContainsJsonCheck, notIsJsonCheck } from './json.js';
import { levenshteinCheck, notLevenshteinCheck } from './levenshtein.js';
import { maxCreditsCheck, maxLatencyCheck, maxTtfcCheck } from './limits.js';
import { similarCheck } from './similarity.js';
import { containsCheck, equalsCheck, icontainsCheck, notContainsCheck, regexCheck, startsWithCheck } from './text.js';
import { containsAllCheck, containsAnyCheck, icontainsAllCheck, icontainsAnyCheck, notEqualsCheck, notIcontainsCheck, notRegexCheck, notStartsWithCheck } from './text-more.js';
import type { CheckHandler, CheckPorts, CheckRegistry, CheckSubject } from './types.js';

export const CHECK_HANDLERS: CheckRegistry = {
  contains: containsCheck,
  icontains: icontainsCheck,
  'not-contains': notContainsCheck,
  regex: regexCheck,
  equals: equalsCheck,
  'starts-with': startsWithCheck,
  'max-ttfc-ms': maxTtfcCheck,
  'max-latency-ms': maxLatencyCheck,
  'max-credits': maxCreditsCheck,
  similar: similarCheck,
  judge: judgeCheck,
  'not-icontains': notIcontainsCheck,
  'not-equals': notEqualsCheck,
  'not-starts-with': notStartsWithCheck,
  'not-regex': notRegexCheck,
  'contains-any': containsAnyCheck,
  'contains-all': containsAllCheck,
  'icontains-any': icontainsAnyCheck,
  'icontains-all': icontainsAllCheck,
  factuality: factualityCheck,
  'answer-relevance': answerRelevanceCheck,
  'context-faithfulness': contextFaithfulnessCheck,
  'context-recall': contextRecallCheck,
  'is-json': isJsonCheck,
  'not-is-json': notIsJsonCheck,
  'contains-json': containsJsonCheck,
  'not-contains-json': notContainsJsonCheck,
  levenshtein: levenshteinCheck,
  'not-levenshtein': notLevenshteinCheck,
};

/** promptfoo's weight and metric travel to the result, where the item's score reads them. */
function scored(result: CheckResult, spec: CheckSpec): CheckResult {
  if (spec.weight !== undefined) result.weight = spec.weight;
  if (spec.metric !== undefined) result.metric = spec.metric;
  return result;
}

async function runOne(spec: CheckSpec, subject: CheckSubject, ports: CheckPorts): Promise<CheckResult> {
  // The registry's mapped type pairs each type with its spec; indexing by a union loses that
  // pairing, so the handler is widened here once rather than switched on per kind.
  const handler = CHECK_HANDLERS[spec.type] as CheckHandler;
  try {
    return scored(await handler(spec, subject, ports), spec);
  } catch (error) {
    // A crashing handler leaves its own check not judged (never a pass), not the whole request.
    const why = `the check could not run: ${(error as Error).message}`;
    return scored({ type: spec.type, pass: null, detail: `not judged: ${why}`, not_judged: why }, spec);
  }
}

/** Runs every check of an answer (judges concurrently) and returns results in spec order. */
export function runChecks(specs: readonly CheckSpec[], subject: CheckSubject, ports: CheckPorts = {}): Promise<CheckResult[]> {
  return Promise.all(specs.map((spec) => runOne(spec, subject, ports)));
}
