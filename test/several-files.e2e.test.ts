// `kbbench run a.csv b.yaml` (issue 31 item 3): questions from a CSV and threads from a YAML run as
// one suite: one run directory holding both files' items for every model, one model comparison;
// an id used in both files is exit 2 naming both places; a problem in each file is named at once.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJson, readNdjson, ROOT, runCliInProcess, tempDir } from './helpers.js';

const CSV = 'id,prompt,expected\nrefund-window,How long do customers have to ask for a refund?,30 days\nteam-price,How much does the Team plan cost?,€29\n';
const YAML = (caseId: string): string => `name: faq-and-threads
workspace: ${join(ROOT, 'suites', 'demo', 'workspace.yaml')}
models: [gpt-4o-mini, gpt-4o]
cases:
  - id: ${caseId}
    prompt: Where is customer data hosted?
    assert: [ { contains: Frankfurt } ]
threads:
  - id: plans
    turns:
      - prompt: How much does the Team plan cost?
        assert: [ { contains: €29 } ]
      - prompt: Is there a free trial?
        assert: [ { icontains: trial } ]
`;

function project(yaml: string, csv = CSV): string {
  const dir = tempDir('kbbench-several-');
  writeFileSync(join(dir, 'a.csv'), csv);
  writeFileSync(join(dir, 'b.yaml'), yaml);
  return dir;
}

describe('kbbench run a.csv b.yaml', () => {
  it('makes one run directory with both files\' items for every model, and one model comparison', async () => {
    const cwd = project(YAML('hosting'));
    const r = await runCliInProcess(['run', 'a.csv', 'b.yaml', '--latency-scale', '0', '--out', 'out/run', '--quiet'], { cwd });
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(readdirSync(join(cwd, 'out'))).toEqual(['run']);
    const lines = readNdjson<{ case_id: string | null; thread_id: string | null; model: string }>(join(cwd, 'out', 'run', 'results.ndjson'));
    const items = new Set(lines.map((l) => `${l.case_id ?? l.thread_id} ${l.model}`));
    expect([...items].sort()).toEqual(
      ['hosting', 'plans', 'refund-window', 'team-price'].flatMap((id) => [`${id} gpt-4o`, `${id} gpt-4o-mini`]).sort(),
    );
    const summary = readJson<{ model_pairs: { a: string; b: string; questions: number }[] }>(join(cwd, 'out', 'run', 'summary.json'));
    expect(summary.model_pairs).toHaveLength(1);
    // Both files' questions: the CSV's two, the YAML's case and its thread's two turns.
    expect(summary.model_pairs[0]!.questions).toBe(5);
  }, 60_000);

  it('refuses an id used in both files, naming both places; nothing is sent', async () => {
    const cwd = project(YAML('refund-window'));
    const r = await runCliInProcess(['run', 'a.csv', 'b.yaml', '--latency-scale', '0', '--out', 'out/run'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/b\.yaml:5\S* .*duplicate id "refund-window": also at \S*a\.csv:2/);
    expect(readdirSync(cwd)).not.toContain('out');
  });

  it('names a problem in each file at once', async () => {
    const cwd = project(YAML('hosting').replace('contains: Frankfurt', 'contians: Frankfurt'), 'id,prompt,expected\nq1,,x\n');
    const r = await runCliInProcess(['validate', 'a.csv', 'b.yaml'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/a\.csv:2 prompt: must not be empty\n\S*b\.yaml:7:\d+ cases\[0\]\.assert\[0\]: unknown check type "contians"/);
  });
});
