// `kbbench validate <suite>`: checks a suite and prints what a run would send, sending nothing.
import type { CommandModule } from 'yargs';
import { describePlanLazily, type LazyPlanDescription } from '../../plan/describe.js';
import { summarizeChecks } from '../../plan/check-listing.js';
import { parseShard } from '../../plan/shard.js';
import { InputError } from '../../domain/errors.js';
import { renderTable } from '../../report/console-summary.js';
import { loadWorkspace, WorkspaceError } from '../../server/workspace.js';
import { prepareRun } from '../../session/prepare.js';
import { holdYoungGeneration } from '../../session/young-generation.js';
import { jsonChunks } from '../json-chunks.js';
import { parseList } from '../parse.js';
import { TOOL_VERSION } from '../version.js';
import { EXIT, type ExitCode } from '../exit.js';
import { checkGraderLabel, describeGrader } from '../../graders/choose.js';
import type { PreparedRun } from '../../session/prepare.js';
import { suitePathsOf } from './suite-paths.js';
import { graderFlags, graderSection } from './grader-flags.js';
import { defaultRunConfig } from '../../config/defaults.js';
import type { CliIo } from '../io.js';
import { askedLoad } from '../../config/load-section.js';

/** At most this many model-graded checks are listed one by one (a CSV suite may have thousands). */
const MAX_LISTED_GRADED = 50;

export interface GradedCheckLine {
  where: string;
  type: string;
  grader: string;
}

/** Each model-graded check and the grader it will use (the check's own chat, else the run's). */
export function gradedChecks(prepared: Pick<PreparedRun, 'suite' | 'grader'>): { total: number; listed: GradedCheckLine[] } {
  const listed: GradedCheckLine[] = [];
  let total = 0;
  const add = (where: string, specs: PreparedRun['suite']['threads'][number]['turns'][number]['assert']): void => {
    for (const spec of specs) {
      const grader = checkGraderLabel(spec, prepared.grader);
      if (grader === undefined) continue;
      total++;
      if (listed.length < MAX_LISTED_GRADED) listed.push({ where, type: spec.type, grader });
    }
  };
  for (const entry of prepared.suite.cases) add(`case ${entry.id}`, entry.assert);
  for (const thread of prepared.suite.threads) for (const turn of thread.turns) add(`thread ${thread.id} turn ${turn.turn}`, turn.assert);
  return { total, listed };
}

function renderGraders(prepared: Pick<PreparedRun, 'suite' | 'grader' | 'knowledge'>): string[] {
  const { total, listed } = gradedChecks(prepared);
  if (total === 0) return [];
  const lines = ['', `model-graded checks: ${total}; the run's grader: ${prepared.grader ? describeGrader(prepared.grader) : 'none (each check names its own chat)'}`];
  if (prepared.knowledge) lines.push(`knowledge: ${prepared.knowledge.files.length} document(s) for context checks`);
  for (const line of listed) lines.push(`  ${line.where}: ${line.type} → ${line.grader}`);
  if (total > listed.length) lines.push(`  … and ${total - listed.length} more`);
  return lines;
}

/** The plan as text, a line at a time: a plan of 200k requests is never held as lines (issue 20 item 18). */
function* render(d: LazyPlanDescription, thresholds: Record<string, string[]>): Generator<string> {
  yield `suite ${d.suite.name} (${d.suite.path}): valid`;
  yield `${d.counts.requests} requests: ${d.counts.cases} case items, ${d.counts.threads} conversations with ${d.counts.turns} turns; repeat ${d.repeat}${d.shard ? `; shard ${d.shard}` : ''}`;
  yield '';
  yield renderTable(['model', 'cases', 'threads', 'requests'], d.per_model.map((m) => [m.model, String(m.cases), String(m.threads), String(m.requests)]));
  if (d.counts.threads > 0) {
    yield '';
    yield 'threads:';
    for (const t of d.threads) yield `  ${t.thread_id}${t.name ? ` "${t.name}"` : ''}: ${t.turns} turns on ${t.models.join(', ')}`;
  }
  const thresholdLines = Object.entries(thresholds).flatMap(([k, list]) => list.map((e) => `  ${k}: ${e}`));
  if (thresholdLines.length) yield* ['', 'thresholds:', ...thresholdLines];
  for (const e of d.excluded) yield `excluded ${e.kind} ${e.id}: ${e.reason}`;
  yield '';
  yield 'requests:';
  for (const r of d.requests) {
    const what = r.prompt === null ? '(creates the conversation)' : JSON.stringify(r.prompt.length > 70 ? `${r.prompt.slice(0, 67)}...` : r.prompt);
    yield `  ${r.endpoint.padEnd(8)} ${r.method.toUpperCase().padEnd(4)} ${r.streaming ? 'stream' : 'json  '} ${r.id}  ${what}`;
    if (r.checks.length > 0) yield `           checks: ${summarizeChecks(r.checks)}`;
  }
}

/** The workspace a run would give the embedded service: it, and every document it names, must be there and valid. */
async function checkWorkspace(path: string | undefined): Promise<void> {
  if (path === undefined) return;
  try {
    await loadWorkspace(path);
  } catch (error) {
    if (!(error instanceof WorkspaceError)) throw error;
    throw new InputError(error.reason, { file: error.file, ...(error.line !== undefined ? { line: error.line } : {}), ...(error.field ? { field: error.field } : {}) });
  }
}

/** Reads the suite, plans it and prints the plan (text, or JSON with --json), sending nothing. */
async function validate(argv: Record<string, unknown>, io: CliIo): Promise<void> {
  const prepared = await prepareRun({
    ...defaultRunConfig({ ...suitePathsOf(argv.suite), models: parseList(argv.models as string | undefined), repeat: argv.repeat as number }, TOOL_VERSION),
    load: askedLoad({ concurrency: 1 }),
    gates: { thresholdFlags: (argv.threshold as string[] | undefined) ?? [] },
    grader: graderSection(argv, io.env, io.cwd),
    placement: argv.shard ? { shard: parseShard(argv.shard as string, io.env.JOB_COMPLETION_INDEX) } : {},
  });
  for (const w of prepared.warnings) io.err(`warning: ${w}`);
  await checkWorkspace((argv.workspace as string | undefined) ?? prepared.suite.workspace);
  const description = describePlanLazily(prepared.plan);
  if (argv.json) {
    const graded = gradedChecks(prepared);
    const grading = { grader: prepared.grader ? describeGrader(prepared.grader) : null, model_graded_checks: graded.total, checks: graded.listed };
    // In pieces of whole lines: the plan of a large suite is tens of MB of JSON.
    for (const chunk of jsonChunks({ ...description, thresholds: prepared.thresholds, grading })) io.out(chunk);
  } else {
    for (const line of render(description, prepared.thresholds)) io.out(line);
    for (const line of renderGraders(prepared)) io.out(line);
  }
}

export function validateCommand(io: CliIo, setExit: (code: ExitCode) => void): CommandModule {
  return {
    command: 'validate <suite..>',
    describe: 'check a suite and print what a run would send (sends nothing)',
    builder: (y) =>
      y
        .positional('suite', { type: 'string', array: true, demandOption: true, describe: 'suite file(s) (.yaml, .yml, .csv); several are one suite' })
        .option('models', { type: 'string', describe: 'comma-separated models (replaces the suite\'s)' })
        .option('repeat', { type: 'number', default: 1 })
        .option('shard', { type: 'string', describe: 'i/N (auto/N: i from JOB_COMPLETION_INDEX + 1)' })
        .option('threshold', { type: 'string', array: true, describe: 'extra thresholds to check' })
        .option('json', { type: 'boolean', default: false, describe: 'print the plan as JSON' })
        .option('workspace', { type: 'string', describe: 'the embedded service\'s workspace to check (default: the suite\'s `workspace:`)' })
        .options(graderFlags('Grader:'))
        .example('$0 validate suites/demo.yaml', 'what the demo would send')
        .example('$0 validate questions.csv threads.yaml', 'several files as one suite (ids unique across them)')
        .example('$0 validate faq.csv --models gpt-4o,o3-mini --json', 'the plan as JSON'),
    handler: async (argv) => {
      // A validate only reads and prints: its young generation need not grow (session/young-generation.ts).
      const release = holdYoungGeneration();
      try {
        await validate(argv, io);
      } finally {
        release();
      }
      setExit(EXIT.ok);
    },
  };
}
