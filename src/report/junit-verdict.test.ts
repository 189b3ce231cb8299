// junit.xml agrees with the verdict (issue 33, item 6): JUnit's red is kbbench's exit 1, no more, no less.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReports } from './build-reports.js';
import { writeSyntheticRun } from './test-support/synthetic-run.js';
import { parseXml, type XmlElement } from './test-support/xml.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function junitWith(thresholds: Record<string, string[]>): Promise<{ verdict: string; tree: XmlElement }> {
  const dir = await mkdtemp(join(tmpdir(), 'kbbench-junit-verdict-'));
  dirs.push(dir);
  const { run } = await writeSyntheticRun(dir, {});
  const { summary } = await buildReports({ runDir: dir, run, thresholds, formats: ['junit'] });
  return { verdict: summary.verdict, tree: parseXml(await readFile(join(dir, 'junit.xml'), 'utf8')) };
}

const testcases = (tree: XmlElement): XmlElement[] => tree.children.flatMap((s) => s.children.filter((c) => c.name === 'testcase'));
const red = (tree: XmlElement): XmlElement[] => testcases(tree).filter((t) => t.children.some((c) => c.name === 'failure' || c.name === 'error'));

describe('junit.xml and the verdict', () => {
  it('a PASS whose failed checks a passing pass_rate threshold judges has no <failure>: the failures are notes', async () => {
    const { verdict, tree } = await junitWith({ pass_rate: ['rate>=0.1'] });
    expect(verdict).toBe('pass');
    expect(red(tree)).toEqual([]);
    expect(tree.attrs).toMatchObject({ failures: '0', errors: '0' });
    const noted = testcases(tree).filter((t) => t.children.some((c) => c.name === 'properties'));
    expect(noted.length).toBeGreaterThan(0);
    const out = noted[0]!.children.find((c) => c.name === 'system-out')!;
    expect(out.text).toMatch(/^not gated \(the verdict does not fail on it\)/);
  });
  it('a FAIL on a threshold alone is red through one verdict testcase', async () => {
    const { verdict, tree } = await junitWith({ pass_rate: ['rate>=0.99'] });
    expect(verdict).toBe('fail');
    expect(red(tree).map((t) => t.attrs.name)).toEqual(['verdict']);
    expect(tree.attrs).toMatchObject({ failures: '1', errors: '0' });
  });
  it('a FAIL on the checks gate keeps each failed testcase red', async () => {
    const { verdict, tree } = await junitWith({});
    expect(verdict).toBe('fail');
    expect(red(tree).length).toBeGreaterThan(0);
    expect(testcases(tree).map((t) => t.attrs.name)).not.toContain('verdict');
  });
});
