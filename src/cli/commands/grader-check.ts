// `kbbench grader-check LABELS.csv | RUN_DIR`: does the grader agree with people? Accuracy, Cohen's kappa, disagreements.
// A run directory's labels (kbbench review) are compared with the run's own verdicts: nothing is sent.
import type { CommandModule } from 'yargs';
import { createRedactor } from '../../client/redact.js';
import { runGraderCheck, type GraderCheckResult } from '../../grader-check/grader-check.js';
import { agreementOfRun, isDirectory } from '../../review/labels-of-run.js';
import { renderRunAgreement } from '../../report/agreement-text.js';
import { startEmbeddedService } from '../embedded.js';
import { EXIT, type ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';
import { parseDurationMs } from '../parse.js';
import { readApiKey } from '../secrets.js';
import { graderFlags, graderOptions } from './run-flags.js';

function render(r: GraderCheckResult): string[] {
  const a = r.agreement;
  const pct = (x: number | null): string => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);
  const lines = [
    `grader ${r.grader}: ${r.labels} labelled answers, ${a.n} judged${r.not_judged > 0 ? `, ${r.not_judged} not judged` : ''}`,
    `accuracy ${pct(a.accuracy)}  Cohen's kappa ${a.kappa === null ? '– (one label only)' : a.kappa.toFixed(3)}`,
    `both pass ${a.confusion.both_pass}  both fail ${a.confusion.both_fail}  grader pass / person fail ${a.confusion.grader_pass_human_fail}  grader fail / person pass ${a.confusion.grader_fail_human_pass}`,
    `grading spent ${r.credits_used.toFixed(5)} credits${r.tokens > 0 ? ` and ${r.tokens} tokens` : ''}`,
  ];
  if (r.disagreements.length > 0) {
    lines.push('', `disagreements: ${r.disagreements.length}`);
    for (const d of r.disagreements) lines.push(`  ${d.id} (line ${d.line}): person ${d.human}, grader ${d.grader}: ${d.detail}`);
  }
  return lines;
}

export function graderCheckCommand(io: CliIo, setExit: (code: ExitCode) => void): CommandModule {
  return {
    command: 'grader-check <labels>',
    describe: "how far the grader agrees with people's verdicts (accuracy, Cohen's kappa, disagreements)",
    builder: (y) =>
      y
        .positional('labels', { type: 'string', demandOption: true, describe: 'a run directory labelled with kbbench review (its verdicts are compared; nothing is sent), or a CSV: answer, a person\'s verdict (human: pass/fail), and question, reference or rubric, type' })
        .option('suite', { type: 'string', describe: 'take the grader (and workspace) from this suite\'s grader: block' })
        .option('base-url', { type: 'string', describe: 'live service base URL (a chat grader); default: the embedded reference service' })
        .option('api-key-file', { type: 'string', describe: 'file holding the service API key (else env KBBENCH_API_KEY)' })
        .option('board', { type: 'string', describe: 'the grader chat\'s board' })
        .option('workspace', { type: 'string', describe: 'embedded service workspace file' })
        .option('timeout', { type: 'string', default: '120s', describe: 'per-grading time limit' })
        .option('json', { type: 'boolean', default: false, describe: 'print the result as JSON' })
        .options(graderFlags('Grader:'))
        .example('$0 grader-check reports/parcel-lockers-20261128T050000Z', "a reviewed run's labels against its own verdicts, per check type")
        .example('$0 grader-check suites/parcel-lockers/labels.csv --suite suites/parcel-lockers/suite.yaml', "the suite's grader against people's labels")
        .example('KBBENCH_GRADER_API_KEY=… $0 grader-check labels.csv --grader-url http://127.0.0.1:8000/v1 --grader-model llama3', 'an OpenAI-compatible grader'),
    handler: async (argv) => {
      const a = argv as Record<string, unknown>;
      if (isDirectory(a.labels as string)) {
        const result = await agreementOfRun(a.labels as string, '<labels>');
        if (argv.json) io.out(JSON.stringify(result, null, 2));
        else for (const line of renderRunAgreement(result)) io.out(line);
        setExit(EXIT.ok);
        return;
      }
      const grader = graderOptions(a, io.env);
      const apiKey = readApiKey(io.env, a.apiKeyFile as string | undefined);
      io.setRedact(createRedactor([apiKey, grader.graderApiKey]));
      const baseUrl = (a.baseUrl as string | undefined) ?? io.env.KBBENCH_BASE_URL;
      const result = await runGraderCheck(
        {
          labelsPath: a.labels as string, timeoutMs: parseDurationMs(a.timeout as string, 'timeout'), ...grader,
          ...(a.suite ? { suitePath: a.suite as string } : {}), ...(baseUrl ? { baseUrl } : {}), ...(apiKey ? { apiKey } : {}),
          ...(a.board ? { board: a.board as string } : {}), ...(a.workspace ? { workspacePath: a.workspace as string } : {}),
        },
        async (embedded) => {
          const service = await startEmbeddedService(embedded, io.env);
          io.setRedact(createRedactor([apiKey, grader.graderApiKey, service.key]));
          return service;
        },
        new AbortController().signal,
      );
      if (argv.json) io.out(JSON.stringify(result, null, 2));
      else for (const line of render(result)) io.out(line);
      setExit(EXIT.ok);
    },
  };
}
