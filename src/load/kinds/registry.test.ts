// A registry entry is all a load kind needs: a test-only kind registered here is read by the
// header, run.json's schedule, the forecast, --resume, --workers, the spec's validation and the
// runner, with no edit anywhere else (docs/architecture.md, "Adding a load kind").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { LoadSpec } from '../../domain/load.js';
import type { Sample } from '../../domain/sample.js';
import { caseId } from '../../plan/item-id.js';
import type { PlanUnit } from '../../plan/types.js';
import { startRun } from '../../runner/run.js';
import type { Executor } from '../../runner/loop/executor.js';
import { chooseWorkers } from '../../session/workers/count.js';
import { parseRunInfo } from '../../store/run-info.js';
import { FakeClock } from '../../test-support/fake-clock.js';
import { scriptedAnswer, scriptedClient } from '../../test-support/scripted-client.js';
import {
  describeLoad, isTimeBound, LoadFieldError, loopOf, noResumeOf, scheduleOf, shardsSchedule, validateSpec, volumeUnknownOf, type LoadKind,
} from '../index.js';
import { LOAD_KINDS } from './registry.js';

/** `starts` starts at once, one every `everyMs`, cycling the plan: a kind no module outside this test knows. */
interface BurstLoad {
  kind: 'burst';
  starts: number;
  everyMs: number;
}

function burstExecutor(spec: BurstLoad): Executor {
  let started = 0;
  return {
    cycles: true,
    timeBound: true,
    maxInFlight: () => Infinity,
    next: ({ elapsedMs }) => {
      if (started >= spec.starts) return { kind: 'done' };
      const dueMs = started * spec.everyMs;
      if (elapsedMs < dueMs) return { kind: 'wait', untilMs: dueMs };
      started += 1;
      return { kind: 'start', intendedAtMs: dueMs };
    },
  };
}

const burstKind: LoadKind<BurstLoad> = {
  kind: 'burst',
  summary: 'a burst: N starts, one every few ms',
  triggers: [],
  accepts: [],
  clash: () => 'a burst clashes with every other kind',
  schema: z.object({ kind: z.literal('burst'), starts: z.number().int().positive('must be 1 or more'), everyMs: z.number().nonnegative() }),
  paths: { starts: 'rate' },
  build: () => ({ kind: 'burst', starts: 1, everyMs: 0 }),
  loop: (spec) => ({ kind: 'burst', executor: () => burstExecutor(spec) }),
  timeBound: true,
  oneWorker: 'a burst is one schedule',
  noResume: 'a burst cannot be resumed: its moment is gone',
  volumeUnknown: 'a burst cycles the plan',
  describe: (spec) => `a burst of ${spec.starts} starts, ${spec.everyMs} ms apart`,
  schedule: (spec) => ({ stages: [{ index: 0, from_rate: 1000 / spec.everyMs, to_rate: 1000 / spec.everyMs, start_ms: 0, end_ms: spec.starts * spec.everyMs }], max_in_flight: spec.starts }),
};

const registry = LOAD_KINDS as unknown as Record<string, LoadKind>;
const spec = { kind: 'burst', starts: 3, everyMs: 10 } as unknown as LoadSpec;

beforeAll(() => {
  registry.burst = burstKind as unknown as LoadKind;
});
afterAll(() => {
  delete registry.burst;
});

describe('a load kind is its module and one registry line', () => {
  it('its spec is checked by its own schema, an issue naming the field its `paths` say', () => {
    expect(validateSpec(spec)).toEqual(spec);
    expect(() => validateSpec({ ...spec, starts: 0 } as unknown as LoadSpec)).toThrow(LoadFieldError);
    expect(() => validateSpec({ ...spec, starts: 0 } as unknown as LoadSpec)).toThrow(expect.objectContaining({ location: { field: '--rate' } }));
  });

  it('the header, run.json\'s schedule, the forecast, --resume and --shard read it', () => {
    expect(describeLoad(spec, { concurrency: 4 })).toBe('a burst of 3 starts, 10 ms apart');
    expect(scheduleOf(spec)).toEqual({ stages: [{ index: 0, from_rate: 100, to_rate: 100, start_ms: 0, end_ms: 30 }], max_in_flight: 3 });
    expect(volumeUnknownOf(spec)).toBe('a burst cycles the plan');
    expect(noResumeOf(spec)).toMatch(/cannot be resumed/);
    expect(isTimeBound(spec)).toBe(true);
    expect(shardsSchedule(spec)).toBe(false);
  });

  it('run.json recording it reads back (report, compare, merge and --resume read it so); an unknown kind is refused by name', () => {
    const file = join(import.meta.dirname, '../../../test/fixtures/runs/v0.1.0-closed-c8/run.json');
    const recorded = parseRunInfo(JSON.parse(readFileSync(file, 'utf8')), 'run.json');
    const raw = JSON.parse(JSON.stringify({ ...recorded, load: { spec } })) as unknown;
    expect(parseRunInfo(raw, 'run.json').load.spec).toEqual(spec);
    expect(() => parseRunInfo({ ...(raw as object), load: { spec: { kind: 'nope' } } }, 'run.json')).toThrow(/not a load kind: nope/);
  });

  it('--workers keeps it in one event loop, for its own reason', () => {
    expect(chooseWorkers({ load: spec, requested: 2, serviceHere: false, partial: false, budget: false, cores: 4 }))
      .toEqual({ count: 1, notice: '--workers 2: one worker ran, for a burst is one schedule' });
  });

  it('the runner runs its loop without knowing its kind', async () => {
    const clock = new FakeClock();
    const request = { id: caseId('q', 'm', 1), case_id: 'q', thread_id: null, turn: null, model: 'm', request_model: 'm', repeat: 1, prompt: 'q', options: {}, checks: [] };
    const units: PlanUnit[] = [{ kind: 'case', index: 0, request }];
    const handle = startRun({ units: () => units.values() }, {
      client: scriptedClient(async () => scriptedAnswer('a', clock.now())), target: { boardId: 'b', chatId: 'c' }, concurrency: 1, clock,
      load: loopOf(spec, { shard: null }), timeoutMs: 1000, retries: 0, check: async () => [], stop: new AbortController().signal, abort: new AbortController().signal,
    });
    const samples: Sample[] = [];
    const intended: (number | null)[] = [];
    await clock.run((async () => {
      for await (const event of handle.events) {
        if (event.type === 'sample') samples.push(event.sample);
        if (event.type === 'start') intended.push(event.intended_at_ms);
      }
    })());
    // Its schedule, on the run's clock, cycling the one-case plan; each start answered.
    expect(intended.map((ms) => ms! - handle.runStartMs)).toEqual([0, 10, 20]);
    expect(samples.map((s) => s.outcome)).toEqual(['ok', 'ok', 'ok']);
  });
});
