import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Sample } from '../domain/sample.js';
import { lineOfSample, trafficOfRun } from './from-run.js';

function sample(fields: Partial<Sample>): Sample {
  return {
    item_id: 'c1', case_id: 'c1', thread_id: null, turn: null, model: 'default', repeat: 1, endpoint: 'ask', conversation_id: null,
    offset_ms: 0, prompt: 'q', outcome: 'ok', ...fields,
  } as Sample;
}

describe('lineOfSample', () => {
  it('keeps the intended instant, the conversation, the model and the item as source', () => {
    expect(lineOfSample(sample({ offset_ms: 1520, scheduled_delay_ms: 20, model: 'gpt-4o' }))).toEqual({ at: 1.5, prompt: 'q', model: 'gpt-4o', source: 'c1' });
    expect(lineOfSample(sample({ item_id: 't/2', case_id: null, thread_id: 't', turn: 2, endpoint: 'continue', conversation_id: 'conv-9' }))).toMatchObject({ conversation: 'conv-9' });
    expect(lineOfSample(sample({ thread_id: 't', repeat: 2 }))).toMatchObject({ conversation: 't#2' });
  });

  it('leaves out what cannot be asked again', () => {
    expect(lineOfSample(sample({ endpoint: 'create', prompt: '' }))).toBeNull();
    expect(lineOfSample(sample({ outcome: 'skipped' }))).toBeNull();
    expect(lineOfSample(sample({ prompt: undefined }))).toBeNull();
  });
});

describe('trafficOfRun', () => {
  it('writes the requests in the order they were meant to start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'traffic-run-'));
    const lines = [sample({ item_id: 'b', offset_ms: 2000 }), sample({ item_id: 'a', offset_ms: 500 }), sample({ endpoint: 'create', prompt: '' })];
    writeFileSync(join(dir, 'results.ndjson'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const out: string[] = [];
    for await (const line of trafficOfRun(dir)) out.push(line);
    expect(out.map((l) => JSON.parse(l) as { at: number; source: string })).toEqual([{ at: 0.5, prompt: 'q', source: 'a' }, { at: 2, prompt: 'q', source: 'b' }]);
  });
});
