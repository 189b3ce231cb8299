// Which grader grades which check: the --grader-* flags over the suite's `grader:` block, a grader
// chat named on a check over both. A model-graded check with none is an input error, never a self-grade.
import { endpointUrlProblem } from '../client/redact.js';
import { InputError } from '../domain/errors.js';
import { MODEL_GRADED_TYPES, type CheckSpec, type GraderSpec, type ModelGradedType, type Suite } from '../domain/suite.js';
import { chatGraderLabel } from './chat-grader.js';
import { openAiGraderLabel } from './openai-grader.js';

export interface GraderFlags {
  graderChat?: string;
  graderModel?: string;
  graderUrl?: string;
}

/** The run's grader: flags first (a CSV suite can name one no other way), then the suite's block. */
export function graderOf(suite: Pick<Suite, 'grader'>, flags: GraderFlags): GraderSpec | undefined {
  if (flags.graderUrl !== undefined) {
    if (flags.graderModel === undefined) throw new InputError('--grader-url needs --grader-model (the model the endpoint serves)', { field: '--grader-url' });
    if (flags.graderChat !== undefined) throw new InputError('give --grader-url or --grader-chat, not both', { field: '--grader-chat' });
    const problem = endpointUrlProblem(flags.graderUrl, 'http://127.0.0.1:8000/v1');
    if (problem !== null) throw new InputError(problem, { field: '--grader-url' });
    return { kind: 'openai', base_url: flags.graderUrl, model: flags.graderModel };
  }
  if (flags.graderChat !== undefined) return { kind: 'chat', chat_id: flags.graderChat, ...(flags.graderModel ? { model: flags.graderModel } : {}) };
  if (suite.grader && flags.graderModel !== undefined) return { ...suite.grader, model: flags.graderModel };
  return suite.grader;
}

export function describeGrader(spec: GraderSpec): string {
  return spec.kind === 'chat' ? chatGraderLabel(spec.chat_id, spec.model) : openAiGraderLabel(spec.base_url, spec.model);
}

export const isModelGraded = (spec: CheckSpec): spec is Extract<CheckSpec, { type: ModelGradedType }> =>
  (MODEL_GRADED_TYPES as readonly string[]).includes(spec.type);

/** The grader a check will use, in words; undefined for a check that needs none. */
export function checkGraderLabel(spec: CheckSpec, grader: GraderSpec | undefined): string | undefined {
  if (!isModelGraded(spec)) return undefined;
  const { chat_id: chatId, model } = spec.value;
  if (chatId !== undefined) return chatGraderLabel(chatId, model ?? (grader?.kind === 'chat' && grader.chat_id === chatId ? grader.model : undefined));
  if (grader === undefined) return undefined;
  return describeGrader(model !== undefined ? { ...grader, model } : grader);
}

/** Every check of the suite (cases, then threads' turns), with where it was written. */
export function* suiteChecks(suite: Pick<Suite, 'cases' | 'threads'>): Generator<CheckSpec> {
  for (const entry of suite.cases) yield* entry.assert;
  for (const thread of suite.threads) for (const turn of thread.turns) yield* turn.assert;
}

const CONTEXT_TYPES: readonly string[] = ['context-faithfulness', 'context-recall'];

/**
 * Before anything is sent: every model-graded check has a grader (its own chat_id, or the run's),
 * and every context check has knowledge documents to be graded against. Names the check's file:line.
 */
export function assertGraders(suite: Pick<Suite, 'cases' | 'threads' | 'knowledge' | 'path'>, grader: GraderSpec | undefined): void {
  for (const spec of suiteChecks(suite)) {
    if (!isModelGraded(spec)) continue;
    const where = { file: spec.location?.file ?? suite.path, ...(spec.location?.line !== undefined ? { line: spec.location.line } : {}), ...(spec.location?.column !== undefined ? { column: spec.location.column } : {}), field: spec.type };
    if (spec.value.chat_id === undefined && grader === undefined) {
      throw new InputError(
        `a ${spec.type} check needs a grader, and none is named: add a grader: block to the suite ({ chat_id: … } or { openai: { base_url, model } }), ` +
          'or --grader-chat ID / --grader-url URL --grader-model M (the answering assistant never grades itself)',
        where,
      );
    }
    if (CONTEXT_TYPES.includes(spec.type) && suite.knowledge === undefined) {
      throw new InputError(`a ${spec.type} check is graded against the suite's knowledge documents: add knowledge: [docs/*.md] to the suite`, where);
    }
  }
}
