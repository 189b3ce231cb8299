// The grader port's kinds: a typed registry, so the compiler asks for a maker of every kind.
import type { GraderSpec } from '../domain/suite.js';
import { chatGrader, type ChatGraderDeps } from './chat-grader.js';
import { openAiGrader, type OpenAiGraderDeps } from './openai-grader.js';
import type { Grader, GraderKind } from './types.js';

export type GraderDeps = ChatGraderDeps & OpenAiGraderDeps;

type GraderMaker<K extends GraderKind> = (spec: Extract<GraderSpec, { kind: K }>, deps: GraderDeps) => Grader;

export const GRADER_KINDS: { [K in GraderKind]: GraderMaker<K> } = {
  chat: chatGrader,
  openai: openAiGrader,
};

export function makeGrader(spec: GraderSpec, deps: GraderDeps): Grader {
  return (GRADER_KINDS[spec.kind] as GraderMaker<GraderKind>)(spec as never, deps);
}

export * from './types.js';
export { chatGraderLabel } from './chat-grader.js';
export { openAiGraderLabel } from './openai-grader.js';
export { knowledgeOf, loadKnowledge, type Knowledge } from './knowledge.js';
export { graderOf, describeGrader, checkGraderLabel, assertGraders, suiteChecks, isModelGraded, type GraderFlags } from './choose.js';
