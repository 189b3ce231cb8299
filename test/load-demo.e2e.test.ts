// suites/load-demo.yaml against the embedded service, time-scaled (--latency-scale 0.2: each answer
// holds one of gpt-4o's 4 slots for about a quarter second): below capacity every answer passes
// and nothing is refused; far above it the queue fills, requests get 429, and queued answers
// miss facts (--degrade-quality). Counts and ratios only.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../src/domain/sample.js';
import { readNdjson, runCliInProcess as runCli, tempDir } from './helpers.js';

async function runAt(rate: number): Promise<Sample[]> {
  const out = join(tempDir(), 'run');
  const r = await runCli([
    'run', 'suites/load-demo.yaml', '--latency-scale', '0.2', '--degrade-quality', '--seed', '4',
    '--rate', String(rate), '--duration', '2s', '--max-in-flight', '200', '--retries', '0', '--out', out, '--quiet',
  ]);
  expect([0, 1], r.stderr).toContain(r.code);
  return readNdjson<Sample>(join(out, 'results.ndjson'));
}

const refused = (samples: Sample[]): number => samples.filter((s) => s.status === 429).length;
const passRate = (samples: Sample[]): number => {
  const answered = samples.filter((s) => s.outcome === 'ok');
  return answered.filter((s) => s.pass === true).length / answered.length;
};

describe('suites/load-demo.yaml finds the embedded service’s knee', () => {
  it('answers everything right below capacity, and refuses and degrades far above it', async () => {
    const below = await runAt(3);
    expect(refused(below)).toBe(0);
    expect(passRate(below)).toBe(1);
    const above = await runAt(40);
    expect(refused(above) / above.length).toBeGreaterThan(0.2);
    expect(passRate(above)).toBeLessThan(0.95);
  });
});
