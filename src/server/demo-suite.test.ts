import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseYaml } from 'yaml';
import { startReferenceService, type RunningService } from './listen.js';
import { DEMO, sseData } from './test-helpers.js';

// The demo suite must pass against this service for every model it lists: ask every case and every
// thread turn over HTTP, streamed as the suite's defaults say, and apply its text checks.

type Check = Record<string, string>;
interface Turn {
  prompt: string;
  additional_context?: string;
  assert?: Check[];
}
interface DemoSuite {
  workspace: string;
  target: { board_id: string; chat_id: string };
  models: string[];
  defaults: { streaming?: boolean };
  cases: (Turn & { id: string })[];
  threads: { id: string; turns: Turn[] }[];
}

const suitesDir = new URL('../../suites/', import.meta.url);
let suite: DemoSuite;
let service: RunningService;

beforeAll(async () => {
  suite = parseYaml(await readFile(new URL('demo.yaml', suitesDir), 'utf8')) as DemoSuite;
  service = await startReferenceService({ latencyScale: 0, workspacePath: fileURLToPath(new URL(suite.workspace, suitesDir)) });
});
afterAll(async () => {
  await service.close();
});

function failedChecks(text: string, checks: Check[] = []): string[] {
  return checks.flatMap((check) =>
    Object.entries(check).flatMap(([kind, value]) => {
      const pass =
        kind === 'contains' ? text.includes(value)
        : kind === 'icontains' ? text.toLowerCase().includes(value.toLowerCase())
        : kind === 'not-contains' ? !text.includes(value)
        : kind === 'regex' ? new RegExp(value).test(text)
        : false;
      return pass ? [] : [`${kind}: ${value}`];
    }),
  );
}

/** Posts a prompt with the suite's defaults and returns the streamed answer text. */
async function ask(path: string, model: string, turn: Turn): Promise<string> {
  const query = new URLSearchParams(suite.target);
  const body = { prompt: turn.prompt, model, streaming: String(suite.defaults.streaming ?? false), additional_context: turn.additional_context };
  const response = await fetch(`${service.url}${path}?${query.toString()}`, { method: 'POST', headers: { 'x-api-key': DEMO.key }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return sseData(await response.text())
    .filter((data) => data.includes('"text-delta"'))
    .map((data) => (JSON.parse(data) as { delta: string }).delta)
    .join('');
}

describe('the demo suite against the reference service', () => {
  it('targets the demo board with three models', () => {
    expect(suite.target).toEqual({ board_id: DEMO.boardId, chat_id: DEMO.chatId });
    expect(suite.models).toHaveLength(3);
    expect(suite.cases.length).toBeGreaterThanOrEqual(8);
  });

  it('passes every case for every model', async () => {
    const failures: string[] = [];
    for (const model of suite.models) {
      for (const testCase of suite.cases) {
        const text = await ask('/api/conversation', model, testCase);
        for (const failure of failedChecks(text, testCase.assert)) failures.push(`${model} ${testCase.id}: ${failure}\n${text}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('passes every thread turn for every model', async () => {
    const failures: string[] = [];
    for (const model of suite.models) {
      for (const thread of suite.threads) {
        const created = await fetch(`${service.url}/api/conversation/new`, {
          method: 'POST',
          headers: { 'x-api-key': DEMO.key },
          body: JSON.stringify({ boardId: suite.target.board_id, chatId: suite.target.chat_id }),
        });
        const { conversationId } = (await created.json()) as { conversationId: string };
        for (const [i, turn] of thread.turns.entries()) {
          const text = await ask(`/api/conversation/${conversationId}`, model, turn);
          for (const failure of failedChecks(text, turn.assert)) failures.push(`${model} ${thread.id} turn ${i + 1}: ${failure}\n${text}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('has a CSV twin with the same prompts and checks', async () => {
    const rows = parseCsv(await readFile(new URL('demo.csv', suitesDir), 'utf8'), { columns: true, bom: true }) as Record<string, string>[];
    const yamlItems = [
      ...suite.cases.map((c) => ({ thread: '', turn: '', ...c })),
      ...suite.threads.flatMap((t) => t.turns.map((turn, i) => ({ thread: t.id, turn: String(i + 1), ...turn }))),
    ];
    expect(rows).toHaveLength(yamlItems.length);
    for (const [i, row] of rows.entries()) {
      const item = yamlItems[i];
      expect([row.prompt, row.thread, row.turn, row.additional_context || undefined]).toEqual([item?.prompt, item?.thread, item?.turn, item?.additional_context]);
      const csvChecks = [
        ...(row.expected ? [`contains: ${row.expected}`] : []),
        ...Object.entries(row).filter(([name, value]) => name.startsWith('__expected') && value !== '').map(([, value]) => value),
      ].sort();
      const yamlChecks = (item?.assert ?? []).flatMap((check) => Object.entries(check).map(([kind, value]) => `${kind}: ${value}`)).sort();
      expect(csvChecks, `row ${row.id}`).toEqual(yamlChecks);
    }
  });
});
