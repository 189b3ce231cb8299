// The demo's documents answer a run only when the run means the demo: a team's own suite that names
// no knowledge base is refused (exit 2) rather than silently graded against a help desk it never wrote.
import { resolve } from 'node:path';
import { InputError } from '../domain/errors.js';
import type { Suite } from '../domain/suite.js';
import { DEMO_WORKSPACE_PATH, isShippedSuite } from '../suite/shipped.js';
import type { RunConfig } from '../config/run-config.js';


/** True when the embedded service serves the demo workspace (none named, or the demo's own named). */
export function servesDemo(workspacePath: string | undefined): boolean {
  return workspacePath === undefined || resolve(workspacePath) === DEMO_WORKSPACE_PATH;
}

/**
 * With no workspace named (flag or suite) the embedded service serves the demo: allowed for a suite
 * kbbench ships, or one that names its board and chat (suite `target:` or --board/--chat); else exit 2
 * with the two ways out.
 */
export function assertMeansDemo(options: Pick<RunConfig, 'target'>, suite: Suite, workspacePath: string | undefined): void {
  if (workspacePath !== undefined) return;
  if ((suite.files ?? [suite.path]).every(isShippedSuite)) return;
  if ((options.target.board ?? suite.target.board_id) !== undefined && (options.target.chat ?? suite.target.chat_id) !== undefined) return;
  throw new InputError(
    'the suite names no knowledge base, and without --base-url the embedded service would answer from the demo\'s documents. ' +
      'Name yours: `workspace: FILE` in a YAML suite (a CSV suite: a YAML suite that includes it, `cases: [file://questions.csv]`) or `--workspace FILE` ' +
      '(`kbbench init` writes one to start from); or ask a live service with --base-url URL --board B --chat C',
    { file: suite.path, field: 'workspace' },
  );
}
