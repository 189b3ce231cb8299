// The checks gate: what fails one by one, what a pass_rate threshold judges, expected failures and unexpected passes.
import { describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { sampleWith } from '../test-support/fixtures.js';
import { createChecksGate } from './checks-gate.js';

const sample = (over: Partial<Sample>): Sample => sampleWith({ model: 'm', outcome: 'ok', pass: true, ...over });

describe('createChecksGate', () => {
  it('counts failures outside coverage, covered ones apart, xfail and xpass, and ignores skipped turns', () => {
    const gate = createChecksGate((s) => s.model === 'covered');
    gate.add(sample({ pass: false }));
    gate.add(sample({ pass: false, outcome: 'http_error' }));
    gate.add(sample({ pass: false, model: 'covered' }));
    gate.add(sample({ pass: false, expected_failure: 'known' }));
    gate.add(sample({ pass: true, expected_failure: 'known' }));
    gate.add(sample({ pass: false, outcome: 'skipped' }));
    gate.add(sample({ pass: true }));
    expect(gate.counts()).toEqual({ failed: 2, covered: 1, expected_failures: 1, unexpected_passes: 1 });
  });

  it('gates only the partitions asked for; failures in the others are reported as not gated (a sweep past slo_max_rate)', () => {
    const gate = createChecksGate(() => false, (s) => s.offset_ms >= 1000 ? 1 : 0);
    gate.add(sample({ pass: false, offset_ms: 10 }));
    gate.add(sample({ pass: false, offset_ms: 1500, outcome: 'http_error' }));
    gate.add(sample({ pass: false, offset_ms: 1600 }));
    expect(gate.counts((part) => part === 0)).toEqual({ failed: 1, covered: 0, expected_failures: 0, unexpected_passes: 0, not_gated: 2 });
    expect(gate.counts()).toEqual({ failed: 3, covered: 0, expected_failures: 0, unexpected_passes: 0 });
  });
});
