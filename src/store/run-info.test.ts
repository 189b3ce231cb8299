import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../domain/errors.js';
import { parseRunInfo } from './run-info.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/runs');
const raw = (name: string): Record<string, unknown> => JSON.parse(readFileSync(join(FIXTURES, name, 'run.json'), 'utf8')) as Record<string, unknown>;

describe('run.json of kbbench 0.1.0, migrated on read', () => {
  it.each<[string, Record<string, unknown>]>([
    ['v0.1.0-closed-c8', { kind: 'closed', concurrency: 8 }],
    ['v0.1.0-open-rate', { kind: 'arrivals', rate: { kind: 'constant', ratePerS: 4, durationMs: 2000 }, arrival: 'constant', maxInFlight: 64 }],
    ['v0.1.0-stages', { kind: 'arrivals', rate: { kind: 'stages', startRatePerS: 0, stages: [{ durationMs: 1000, targetPerS: 2 }, { durationMs: 1000, targetPerS: 4 }] } }],
    ['v0.1.0-concurrency-stages', { kind: 'ramping-workers', stages: [{ durationMs: 1000, targetPerS: 2 }, { durationMs: 1000, targetPerS: 0 }] }],
  ])('%s: its load spec from the options it recorded, its stages kept', (name, spec) => {
    const info = parseRunInfo(raw(name), `${name}/run.json`);
    expect(info.schema_version).toBe(4);
    // The load is `load.spec` alone: the config holds no load field to read instead.
    expect(info.config).not.toHaveProperty('load');
    expect(info.config.plan).not.toHaveProperty('concurrency');
    expect(info.load.spec).toMatchObject(spec);
    expect(info.load.stages).toEqual((raw(name).load as { stages?: unknown } | undefined)?.stages);
  });

  it('a schema-4 run.json reads as written', () => {
    const info = parseRunInfo(raw('v0.1.0-closed-c8'), 'a/run.json');
    expect(parseRunInfo(JSON.parse(JSON.stringify(info)), 'b/run.json')).toEqual(info);
  });

  it('a schema-2 run.json (written before the typed run config) reads as 4: its load fields left to load.spec, its options in sections', () => {
    const info = parseRunInfo(raw('schema2-interrupted'), 'a/run.json');
    expect(info).toMatchObject({
      schema_version: 4, load: { spec: { kind: 'closed', concurrency: 4 } },
      config: { plan: { repeat: 1 }, placement: { workers: 1 }, request: { requestDefaults: { streaming: false } }, embedded: { seed: 7, latencyScale: 0 } },
    });
    expect(info.config.plan).not.toHaveProperty('concurrency');
  });

  it('a schema-3 run.json (flat options) reads as 4: each option in its section, renamed where the section says it', () => {
    const three = raw('schema3-interrupted');
    const options = { ...(three.options as object), graderUrl: 'http://g/v1', graderModel: 'g1', outputs: [{ kind: 'otlp', url: 'http://127.0.0.1:4318' }], merged_from: ['/a'], maxCredits: 5 };
    const info = parseRunInfo({ ...three, options }, 'a/run.json');
    expect(info.config).toMatchObject({
      target: { auth: 'header' }, plan: { suitePath: 'test/fixtures/e2e/small.yaml', repeat: 1, seed: 7 }, request: { timeoutMs: 120000, retries: 2, gracefulStopMs: 30000 },
      grader: { url: 'http://g/v1', model: 'g1' }, outputs: { live: [{ kind: 'otlp', url: 'http://127.0.0.1:4318' }], outDir: 'reports/small-schema3' },
      record: { mergedFrom: ['/a'] }, budget: { maxCredits: 5 }, placement: { workers: 1 },
    });
    expect(info).not.toHaveProperty('options');
  });

  it('a config field of the wrong type names its field', () => {
    const info = parseRunInfo(raw('schema3-interrupted'), 'a/run.json');
    expect(() => parseRunInfo({ ...info, config: { ...info.config, plan: { repeat: 'twice' } } }, 'a/run.json')).toThrow(/run\.json "config\.plan\.repeat": expected a number/);
  });

  it('an option of the wrong type names its field', () => {
    const wrong = { ...raw('schema2-interrupted'), options: { repeat: 'twice' } };
    expect(() => parseRunInfo(wrong, 'a/run.json')).toThrow(/run\.json "options\.repeat": expected a number/);
  });
});

describe('a run.json that is not one', () => {
  const errorOf = (value: unknown): InputError => {
    try {
      parseRunInfo(value, 'dir/run.json');
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      return error as InputError;
    }
    throw new Error('expected an input error');
  };

  it.each(['options', 'plan', 'target', 'tool', 'suite', 'status'])('without %s: names the file and the field', (field) => {
    const info = raw('v0.1.0-interrupted');
    delete info[field];
    const error = errorOf(info);
    expect(error.location).toEqual({ file: 'dir/run.json', field });
    expect(error.message).toContain(`has no "${field}"`);
  });

  it('a field of the wrong type, a newer schema, or no object at all', () => {
    expect(errorOf({ ...raw('v0.1.0-interrupted'), target: { base_url: 'x', embedded: 'yes', board_id: 'b', chat_id: 'c' } }).location.field).toBe('target.embedded');
    expect(errorOf({ ...raw('v0.1.0-interrupted'), schema_version: 5 }).location.field).toBe('schema_version');
    expect(errorOf([]).message).toMatch(/not an object/);
  });

  it("history's fields: a commit or a knowledge base of the wrong type is named", () => {
    expect(errorOf({ ...raw('v0.1.0-interrupted'), commit: 5 }).location.field).toBe('commit');
    expect(errorOf({ ...raw('v0.1.0-interrupted'), knowledge_base: { version: 'v1' } }).location.field).toBe('knowledge_base.sha256');
  });
});
