// A suite's `load:` block: both stage forms, the flags' rules said at the suite's line.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSuite } from './load.js';
import { suiteIssuesOf } from './test-helpers.js';

const CASES = 'cases:\n  - id: a\n    prompt: Hi\n';
const yaml = (load: string) => parseSuite(Buffer.from(`${CASES}load:\n${load}`), 'dir/inline.yaml');

const issuesOf = (load: string): string[] => suiteIssuesOf(() => yaml(load));

describe('a suite load: block', () => {
  it('reads the flag text and k6 list forms of stages to the same stages, with the other keys', () => {
    const text = yaml('  stages: 20s:2, 1m:5\n  start_rate: 1\n  max_in_flight: 64\n  arrival: poisson\n  mix: shuffle\n  warmup: 5s\n  degrade_quality: true\n').load;
    expect(text).toEqual({
      stages: [{ durationMs: 20_000, targetPerS: 2 }, { durationMs: 60_000, targetPerS: 5 }], start_rate: 1, max_in_flight: 64,
      arrival: 'poisson', mix: 'shuffle', warmup_ms: 5000, degrade_quality: true, location: { file: 'dir/inline.yaml', line: 5, column: 3 },
    });
    const list = yaml('  stages:\n    - { duration: 20s, target: 2 }\n    - { duration: 60, target: 5 }\n').load;
    expect(list?.stages).toEqual(text?.stages);
    expect(yaml('  rate: 3\n  duration: 1m\n').load).toMatchObject({ rate: 3, duration_ms: 60_000 });
    expect(parseSuite(Buffer.from(CASES), 'dir/inline.yaml').load).toBeUndefined();
  });

  it('says every load kind: a sweep with its SLOs, worker stages, a closed loop\'s concurrency', () => {
    expect(yaml('  sweep: 3\n  duration: 10s\n  max_in_flight: 16\n  slo: ["ttfc_ms=p(95)<2000", "pass_rate=rate>=0.9"]\n').load).toMatchObject({
      sweep: 3, duration_ms: 10_000, max_in_flight: 16, slo: ['ttfc_ms=p(95)<2000', 'pass_rate=rate>=0.9'],
    });
    expect(yaml('  concurrency_stages: 10s:4,20s:8\n').load?.concurrency_stages).toEqual([{ durationMs: 10_000, targetPerS: 4 }, { durationMs: 20_000, targetPerS: 8 }]);
    expect(yaml('  concurrency: 8\n').load).toMatchObject({ concurrency: 8 });
  });

  it('names a traffic log beside the suite file, with the replay\'s keys', () => {
    expect(yaml('  traffic: logs/pilot.jsonl\n  time_scale: 4\n  loop: true\n  duration: 1m\n  traffic_window: 30s\n').load).toMatchObject({
      traffic: resolve('dir/logs/pilot.jsonl'), time_scale: 4, loop: true, duration_ms: 60_000, traffic_window_ms: 30_000,
    });
    expect(yaml('  traffic: /abs/pilot.csv\n  traffic_rate: 2\n').load).toMatchObject({ traffic: '/abs/pilot.csv', traffic_rate: 2 });
  });

  it.each<[string, string, RegExp]>([
    ['a sweep without duration', '  sweep: 3\n', /load\.sweep: sweep needs duration/],
    ['an SLO without a sweep', '  rate: 3\n  duration: 1s\n  slo: ["ttfc_ms=p(95)<100"]\n', /load\.slo: slo is judged per rate of a sweep/],
    ['an SLO that stops the run', '  sweep: 2\n  duration: 1s\n  slo: ["ttfc_ms=p(95)<100;abortOnFail"]\n', /load\.slo: .*never stops/],
    ['a sweep with rate', '  sweep: 2\n  duration: 1s\n  rate: 3\n', /load\.sweep: sweep chooses its own rates/],
    ['a stage without a target', '  stages: 20s:2,20s\n', /^dir\/inline\.yaml:5:11 load\.stages: "20s" is not duration:target/],
    ['a bad duration in the list form', '  stages: [{ duration: soon, target: 2 }]\n', /:5:24 load\.stages\[0\]\.duration: expected a duration/],
    ['a negative target', '  stages: [{ duration: 1s, target: -1 }]\n', /load\.stages\[0\]\.target: must be 0 or more/],
    ['stages with rate', '  stages: 10s:2\n  rate: 3\n', /:6:\d+ load\.rate: stages and rate are two arrival rates/],
    ['stages with duration', '  stages: 10s:2\n  duration: 10s\n', /load\.duration: stages carries its own durations; leave out duration/],
    ['rate without duration', '  rate: 3\n', /load\.rate: rate needs duration/],
    ['start_rate without stages', '  rate: 3\n  duration: 1s\n  start_rate: 1\n', /load\.start_rate: .*needs stages/],
    ['stages that start nothing', '  stages: 10s:0\n', /load\.stages: plans no start/],
    ['no shape at all', '  max_in_flight: 4\n', /a load block needs stages, rate and duration, sweep and duration/],
    ['an unknown arrival', '  rate: 3\n  duration: 1s\n  arrival: poison\n', /load\.arrival: must be one of constant, poisson/],
    ['a misspelt key', '  stages: 10s:2\n  max_inflight: 4\n', /unknown key "max_inflight" in load \(did you mean "max_in_flight"\?\)/],
    ['a replay looped without duration', '  traffic: pilot.jsonl\n  loop: true\n', /load\.loop: loop replays the log again and again: give duration/],
    ['a replay with two speeds', '  traffic: pilot.jsonl\n  time_scale: 2\n  traffic_rate: 3\n', /load\.traffic_rate: time_scale and traffic_rate both set the replay's speed/],
    ['a replay with stages', '  traffic: pilot.jsonl\n  stages: 10s:2\n', /traffic replays a log at its own instants; leave out stages/],
    ['a replay\'s key without a log', '  rate: 3\n  duration: 1s\n  time_scale: 2\n', /time_scale/],
    ['a fractional max_in_flight', '  stages: 10s:2\n  max_in_flight: 1.5\n', /load\.max_in_flight: must be a whole number/],
  ])('%s is an error at its line', (_, load, message) => {
    expect(issuesOf(load)).toEqual(expect.arrayContaining([expect.stringMatching(message)]));
  });
});
