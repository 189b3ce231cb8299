// A result's values that came from outside (the answer, an error body, ids the service chose, check
// details quoting the answer) scrubbed of secrets before the line is written. Only values: the
// line's structure (its keys, numbers, the outcome) is ours and never searched.
import type { Redactor } from '../client/redact.js';
import type { Sample } from '../domain/sample.js';
import { outputSecrets } from '../outputs/spec.js';
import type { RunConfig } from '../config/run-config.js';

/**
 * Every credential a run knows, for its one redactor (client/redact.ts): the service key, the
 * grader's and the embeddings endpoint's, and what the live-metrics outputs send (their URLs'
 * basic auth, OTLP's headers from `env`). A value from outside that echoes one is redacted.
 */
export function runCredentials(options: Pick<RunConfig, 'target' | 'grader' | 'outputs'>, env: Readonly<Record<string, string | undefined>>): string[] {
  const keys = [options.target.apiKey, options.grader.apiKey, options.grader.embeddings?.apiKey].filter((k): k is string => k !== undefined);
  return [...keys, ...outputSecrets(options.outputs.live ?? [], env)];
}

const NO_DETAILS: readonly string[] = Object.freeze([]);

export function redactSample(sample: Sample, redact: Redactor): Sample {
  const text = redact(sample.text);
  const message = sample.error ? redact(sample.error.message) : undefined;
  const conversationId = sample.conversation_id === null ? null : redact(sample.conversation_id);
  const details = sample.checks.length === 0 ? NO_DETAILS : sample.checks.map((check) => redact(check.detail));
  // The credit values a service sent back as they were seen (`credits_used kb-live-…` when it echoes the key there).
  const creditsInvalid = sample.credits_invalid === undefined ? undefined : redact(sample.credits_invalid);
  const changed =
    text !== sample.text || message !== sample.error?.message || conversationId !== sample.conversation_id ||
    creditsInvalid !== sample.credits_invalid ||
    details.some((detail, i) => detail !== sample.checks[i]!.detail);
  // Almost every result holds no secret: it is passed on as it is, without a copy.
  if (!changed) return sample;
  return {
    ...sample,
    text,
    conversation_id: conversationId,
    error: sample.error ? { ...sample.error, message: message! } : null,
    checks: sample.checks.map((check, i) => ({ ...check, detail: details[i]! })),
    ...(creditsInvalid !== undefined ? { credits_invalid: creditsInvalid } : {}),
  };
}
