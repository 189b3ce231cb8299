import { describe, expect, it } from 'vitest';
import type { OutputReport } from '../domain/output.js';
import type { ClosedSecond, Output, OutputContext } from './output.js';
import { lazyOutput } from './registry.js';

const ctx: OutputContext = { runId: 'r', suite: 's', shard: '1/1', models: ['m'] };
const second = (n: number): ClosedSecond => ({ line: { t: n } as unknown as ClosedSecond['line'], models: {} });

describe('lazyOutput', () => {
  it('hands the seconds closed while its module loads to the output, in order, after start', async () => {
    const calls: string[] = [];
    const report: OutputReport = { kind: 'otlp', url: 'http://127.0.0.1:1/', sent_batches: 2, sent_samples: 2, dropped_batches: 0, errors: 0, first_error: null };
    const real: Output = {
      kind: 'otlp',
      start: () => calls.push('start'),
      second: (s) => calls.push(`second ${(s.line as unknown as { t: number }).t}`),
      stop: async () => report,
    };
    const output = lazyOutput('otlp', async () => () => real, new URL('http://127.0.0.1:1/'), ctx);
    output.start();
    output.second(second(1));
    output.second(second(2));
    expect(calls).toEqual([]);
    expect(await output.stop(100)).toBe(report);
    expect(calls).toEqual(['start', 'second 1', 'second 2']);
  });

  it('reports a module that fails to load as an error of that output, the seconds dropped, and the run goes on', async () => {
    const output = lazyOutput('prometheus-rw', () => Promise.reject(new Error('no such module')), new URL('http://u:p@127.0.0.1:1/write?k=v'), ctx);
    output.start();
    output.second(second(1));
    const report = await output.stop(100);
    expect(report).toMatchObject({ kind: 'prometheus-rw', url: 'http://127.0.0.1:1/write', errors: 1, dropped_batches: 1, sent_batches: 0 });
    expect(report?.first_error).toContain('no such module');
  });
});
