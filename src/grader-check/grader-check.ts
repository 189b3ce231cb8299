// `kbbench grader-check`: the grader grades answers people have labelled; how often it agrees.
import { runChecks } from '../checks/index.js';
import { createClient } from '../client/index.js';
import { InputError } from '../domain/errors.js';
import type { GraderSpec, Suite } from '../domain/suite.js';
import { describeGrader, graderOf, makeGrader, type GraderFlags } from '../graders/index.js';
import { agreement, type Agreement } from '../graders/agreement.js';
import { readLabels } from '../graders/labels.js';
import { loadSuite } from '../suite/index.js';
import type { EmbeddedLauncher } from '../session/target.js';
import { preflightGrader } from '../session/preflight.js';

export interface GraderCheckOptions extends GraderFlags {
  labelsPath: string;
  /** A suite whose `grader:` block (and workspace, target board) to use. */
  suitePath?: string;
  baseUrl?: string;
  apiKey?: string;
  board?: string;
  workspacePath?: string;
  graderApiKey?: string;
  timeoutMs: number;
}

export interface Disagreement {
  id: string;
  line: number;
  human: 'pass' | 'fail';
  grader: 'pass' | 'fail' | 'not judged';
  detail: string;
}

export interface GraderCheckResult {
  grader: string;
  labels: number;
  not_judged: number;
  agreement: Agreement;
  disagreements: Disagreement[];
  credits_used: number;
  tokens: number;
}

/** Rows graded at once: a grader is a shared service, and a labels file is small. */
const CONCURRENCY = 4;

async function serviceFor(spec: GraderSpec, options: GraderCheckOptions, suite: Suite | undefined, launch: EmbeddedLauncher) {
  if (spec.kind === 'openai') return null;
  if (options.baseUrl) {
    if (!options.apiKey) throw new InputError('a live service needs an API key: set KBBENCH_API_KEY or pass --api-key-file PATH', { field: '--base-url' });
    const board = spec.board_id ?? options.board ?? suite?.target.board_id;
    if (!board) throw new InputError('name the grader chat\'s board: --board ID (or board_id in the grader: block)', { field: '--board' });
    return { url: options.baseUrl, key: options.apiKey, board, stop: async () => undefined };
  }
  const workspacePath = options.workspacePath ?? suite?.workspace;
  const service = await launch(workspacePath ? { workspacePath } : {});
  const board = spec.board_id ?? options.board ?? suite?.target.board_id ?? service.defaultTarget?.boardId;
  if (!board) {
    await service.stop();
    throw new InputError('name the grader chat\'s board: --board ID (or board_id in the grader: block)', { field: '--board' });
  }
  return { url: service.url, key: service.key, board, stop: () => service.stop() };
}

export async function runGraderCheck(options: GraderCheckOptions, launch: EmbeddedLauncher, signal: AbortSignal): Promise<GraderCheckResult> {
  const rows = readLabels(options.labelsPath);
  const suite = options.suitePath ? await loadSuite(options.suitePath) : undefined;
  const spec = graderOf(suite ?? {}, options);
  if (spec === undefined) throw new InputError('name the grader to check: --grader-chat ID or --grader-url URL --grader-model M (or --suite with a grader: block)', { field: '--grader-chat' });
  const service = await serviceFor(spec, options, suite, launch);
  const client = createClient({ baseUrl: service?.url ?? 'http://127.0.0.1:9', apiKey: service?.key ?? '', auth: 'header' });
  try {
    const grader = makeGrader(spec, { client, boardId: service?.board ?? '', timeoutMs: options.timeoutMs, ...(options.graderApiKey ? { apiKey: options.graderApiKey } : {}) });
    await preflightGrader(grader, signal);
    const ports = {
      judge: async (request: { prompt: string }) => {
        const answer = await grader.ask(request.prompt, signal);
        return { text: answer.text, credits_used: answer.credits_used, tokens: answer.tokens, grader: grader.label };
      },
    };
    const graded: { row: (typeof rows)[number]; pass: boolean | null; detail: string; credits: number; tokens: number }[] = [];
    for (let i = 0; i < rows.length; i += CONCURRENCY) {
      const batch = rows.slice(i, i + CONCURRENCY);
      const results = await Promise.all(batch.map((row) => runChecks([row.spec], { text: row.answer, prompt: row.question, ttfc_ms: null, latency_ms: null, credits_used: null }, ports)));
      batch.forEach((row, j) => {
        const check = results[j]![0]!;
        graded.push({ row, pass: check.pass, detail: check.detail, credits: check.credits_used ?? 0, tokens: check.grader_tokens ?? 0 });
      });
    }
    const judged = graded.filter((g): g is typeof g & { pass: boolean } => g.pass !== null);
    const disagreements: Disagreement[] = graded
      .filter((g) => g.pass !== g.row.human)
      .map((g) => ({ id: g.row.id, line: g.row.line, human: g.row.human ? 'pass' : 'fail', grader: g.pass === null ? 'not judged' : g.pass ? 'pass' : 'fail', detail: g.detail }));
    return {
      grader: describeGrader(spec),
      labels: rows.length,
      not_judged: graded.length - judged.length,
      agreement: agreement(judged.map((g) => ({ human: g.row.human, grader: g.pass }))),
      disagreements,
      credits_used: Math.round(graded.reduce((sum, g) => sum + g.credits, 0) * 1e5) / 1e5,
      tokens: graded.reduce((sum, g) => sum + g.tokens, 0),
    };
  } finally {
    await client.close();
    await service?.stop();
  }
}
