// A replayed record's request takes the run's request options as a case does: the suite's defaults under its own, the flags' over both.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../runner/unit.js';
import type { LoopState } from '../../../runner/loop/executor.js';
import { trafficExecutor, unitOf } from './executor.js';
import type { PacedTurn } from './pacing.js';

const paced = (over: Partial<PacedTurn['due']['record']> = {}): PacedTurn => ({
  due: { record: { line: 3, at: { seconds: 1 }, prompt: 'What is the refund window?', checks: [], ...over }, dueMs: 1000, pass: 1, index: 0, conversationKey: null },
  latenessMs: 0, conversationId: null, turn: null,
});

describe('a replayed record\'s request options', () => {
  it('takes --no-stream and the suite\'s defaults, its own fields over the suite\'s, the flags\' over both', () => {
    const unit = unitOf(paced({ user: 'u-7' }), null, undefined, { suite: { plaintext: true, user: 'suite-user', streaming: true }, flags: { streaming: false } });
    expect(unit.kind).toBe('case');
    expect(unit.kind === 'case' && unit.request.options).toEqual({ plaintext: true, user: 'u-7', streaming: false });
  });

  it('is the record\'s own with no layers', () => {
    const unit = unitOf(paced({ source: 'web' }), null);
    expect(unit.kind === 'case' && unit.request.options).toEqual({ source: 'web' });
  });
});

describe('a replay\'s dropped turns', () => {
  it('free their conversation (the next turn goes, numbered in file order), and those held at the cut are dropped by name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kbbench-traffic-'));
    const file = join(dir, 'log.jsonl');
    writeFileSync(file, ['0', '0.1', '0.2'].map((at) => JSON.stringify({ at: Number(at), prompt: `turn at ${at}`, conversation: 'c' })).join('\n') + '\n');
    const pushed: RunEvent[] = [];
    const ex = trafficExecutor({ file, maxInFlight: 1, replay: { timeScale: 1, durationMs: 500 } }, { push: (e) => pushed.push(e) });
    await new Promise((resolve) => setTimeout(resolve, 100)); // the read-ahead has the log
    const at = (elapsedMs: number): ReturnType<typeof ex.next> => ex.next({ elapsedMs, inFlight: 0, settled: 0, nextIndex: 0 } satisfies LoopState);
    const first = at(0);
    if (first.kind !== 'start' || first.unit === undefined) throw new Error(`turn 1 did not start: ${JSON.stringify(first)}`);
    expect(first.intendedAtMs).toBe(0);
    // Turn 2 is due but waits behind turn 1's answer.
    expect(at(100)).toMatchObject({ kind: 'wait' });
    // Turn 1 was dropped (held past the cap): no answer will come, so turn 2 goes now.
    ex.dropped!([first.unit]);
    const second = at(150);
    expect(second.kind === 'start' && second.unit?.kind === 'thread' && second.unit.turns[0]!.turn).toBe(2);
    // Turn 3 waits behind turn 2; the cut comes first: it is dropped, by name.
    expect(at(200)).toMatchObject({ kind: 'wait' });
    expect(at(500)).toEqual({ kind: 'done' });
    expect(pushed).toEqual([{ type: 'dropped', count: 1, items: ['thread:c|turn:3|model:default|r1'] }]);
  });
});
