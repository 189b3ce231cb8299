// The retry layer around a grader: a judge's 503 is retried as an answer's is, on the policy it was given.
import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKOFF } from '../client/retry.js';
import { NotFoundError, ServerError } from '../domain/errors.js';
import { retryingGrader } from './retrying.js';
import type { Grader } from './types.js';

function flakyGrader(failures: Error[], asked: string[] = []): Grader {
  return {
    kind: 'chat', label: 'chat g', model: null,
    withModel: (model) => ({ ...flakyGrader(failures, asked), model }),
    ask: async (prompt) => {
      asked.push(prompt);
      const failure = failures.shift();
      if (failure) throw failure;
      return { text: '{"pass":true}', credits_used: 0.01, tokens: null };
    },
    preflight: async () => undefined,
  };
}

const policy = { ...DEFAULT_BACKOFF, retries: 2, baseMs: 0, random: () => 0 };
const signal = new AbortController().signal;

describe('retryingGrader', () => {
  it('retries a passing 5xx, and a grader asking another model keeps the layer', async () => {
    const asked: string[] = [];
    const grader = retryingGrader(flakyGrader([new ServerError('busy', 503, null)], asked), policy);
    expect((await grader.ask('judge this', signal)).text).toBe('{"pass":true}');
    expect(asked).toEqual(['judge this', 'judge this']);
    const other = retryingGrader(flakyGrader([new ServerError('busy', 503, null), new ServerError('busy', 503, null)]), policy).withModel('gpt-4o');
    expect(other.model).toBe('gpt-4o');
    expect((await other.ask('again', signal)).text).toBe('{"pass":true}');
  });

  it('does not retry what is not transient, and is the grader itself with no retries', async () => {
    const asked: string[] = [];
    await expect(retryingGrader(flakyGrader([new NotFoundError('no chat', 404, null)], asked), policy).ask('q', signal)).rejects.toThrow('no chat');
    expect(asked).toHaveLength(1);
    const bare = flakyGrader([]);
    expect(retryingGrader(bare, { ...policy, retries: 0 })).toBe(bare);
  });
});
