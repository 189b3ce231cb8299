// The judge chat's JSON protocol: prompts with a TASK and named sections (RUBRIC, QUESTION,
// REFERENCE, CONTEXT, ANSWER) get a reply `{"pass", "score", "reason"}` (factuality adds
// "category"). Which grading applies follows from the sections present:
//   RUBRIC + ANSWER                llm-rubric       the rubric's phrases or terms are in the answer
//   REFERENCE + ANSWER             factuality       the reference's numbers are not contradicted
//   QUESTION + ANSWER              answer-relevance the answer speaks of what was asked
//   CONTEXT + ANSWER               faithfulness     each sentence's numbers and terms are in the context
//   REFERENCE + CONTEXT            context-recall   each reference sentence is in the context
import { contentTerms } from './text-terms.js';

const SECTION_NAMES = ['TASK', 'RUBRIC', 'QUESTION', 'REFERENCE', 'CONTEXT', 'ANSWER'] as const;
type SectionName = (typeof SECTION_NAMES)[number];
export type Sections = Partial<Record<SectionName, string>>;

/** Does the prompt ask for the JSON verdict (rather than the older VERDICT line)? */
export function asksForJson(prompt: string): boolean {
  return /"pass"\s*:/.test(prompt) && /^\s*TASK:/m.test(prompt);
}

/** A section's text without the markers kbbench quotes it between (`<<<NAME id` … `NAME id>>>`). */
function unquote(text: string): string {
  const quoted = /^<<<([A-Z]+) ([0-9a-f]{8})\n([\s\S]*?)\n\1 \2>>>$/.exec(text);
  return quoted ? (quoted[3] ?? '') : text;
}

/** Splits a prompt at its section headings (`NAME:` at a line start), in the order they appear. */
export function parseSections(prompt: string): Sections {
  const heading = new RegExp(`^\\s*(${SECTION_NAMES.join('|')}):[ \\t]*`, 'gm');
  const marks = [...prompt.matchAll(heading)];
  const sections: Sections = {};
  marks.forEach((mark, i) => {
    const name = mark[1] as SectionName;
    if (sections[name] !== undefined) return;
    const from = (mark.index ?? 0) + mark[0].length;
    const to = marks[i + 1]?.index ?? prompt.length;
    sections[name] = unquote(prompt.slice(from, to).trim());
  });
  return sections;
}

const reply = (pass: boolean, score: number, reason: string, extra: Record<string, string> = {}): string =>
  JSON.stringify({ pass, score: Math.round(score * 100) / 100, reason, ...extra });

/** Numbers as written (72, 48, 2.50), the facts a wrong answer most often gets wrong. */
function numbers(text: string): Set<string> {
  return new Set([...text.matchAll(/\d+(?:[.,]\d+)?/g)].map((m) => m[0].replace(',', '.')));
}

/** Words that ask rather than say; never required of an answer. */
const QUESTION_WORDS = new Set(['long', 'many', 'much', 'often', 'happen', 'happens', 'way', 'possible', 'ok']);

function share(wanted: readonly string[], present: ReadonlySet<string>): number {
  if (wanted.length === 0) return 1;
  return wanted.filter((term) => present.has(term)).length / wanted.length;
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.replace(/^[\s*\-•\d.)[\]]+/, '').trim())
    // A lead-in ("Short answer:") and the sources line state no fact of their own.
    .filter((s) => !s.endsWith(':') && !/^sources?:/i.test(s))
    .filter((s) => contentTerms(s).length >= 2);
}

function factuality(reference: string, answer: string): string {
  const referenceNumbers = numbers(reference);
  const answerNumbers = numbers(answer);
  const missingNumbers = [...referenceNumbers].filter((n) => !answerNumbers.has(n));
  const extraNumbers = [...answerNumbers].filter((n) => !referenceNumbers.has(n));
  if (missingNumbers.length > 0 && extraNumbers.length > 0) {
    return reply(false, 0, `the answer says ${extraNumbers.join(', ')} where the reference says ${missingNumbers.join(', ')}`, { category: 'D' });
  }
  const terms = [...new Set(contentTerms(reference))];
  const covered = share(terms, new Set(contentTerms(answer)));
  if (missingNumbers.length === 0 && covered >= 0.8) {
    return reply(true, 1, extraNumbers.length > 0 || contentTerms(answer).length > terms.length * 1.5 ? 'the answer holds the reference and more, consistently' : 'the answer has the same details', {
      category: extraNumbers.length > 0 || contentTerms(answer).length > terms.length * 1.5 ? 'B' : 'C',
    });
  }
  return reply(true, Math.max(0.5, covered), 'the answer holds part of the reference and does not contradict it', { category: 'A' });
}

function relevance(question: string, answer: string): string {
  const wanted = [...new Set(contentTerms(question).filter((t) => !QUESTION_WORDS.has(t)))];
  const covered = share(wanted, new Set(contentTerms(answer)));
  const pass = covered >= 0.5 && answer.trim() !== '';
  return reply(pass, covered, pass ? 'the answer speaks of what the question asks' : `the answer hardly mentions what was asked (${Math.round(covered * 100)}% of its terms)`);
}

/** Is a sentence backed by the context: its numbers there, and most of its terms? */
function supported(sentence: string, contextTerms: ReadonlySet<string>, contextNumbers: ReadonlySet<string>): boolean {
  if ([...numbers(sentence)].some((n) => !contextNumbers.has(n))) return false;
  return share(contentTerms(sentence), contextTerms) >= 0.6;
}

function faithfulness(context: string, answer: string): string {
  const claims = sentences(answer);
  if (claims.length === 0) return reply(false, 0, 'the answer makes no claim to check');
  const terms = new Set(contentTerms(context));
  const nums = numbers(context);
  const unsupported = claims.filter((claim) => !supported(claim, terms, nums));
  const score = (claims.length - unsupported.length) / claims.length;
  if (unsupported.length === 0) return reply(true, 1, `all ${claims.length} claim(s) are supported by the context`);
  return reply(false, score, `not supported by the context: "${unsupported[0]!.slice(0, 120)}"`);
}

function recall(reference: string, context: string): string {
  const facts = sentences(reference);
  if (facts.length === 0) return reply(false, 0, 'the reference has no fact to look for');
  const terms = new Set(contentTerms(context));
  const nums = numbers(context);
  const missing = facts.filter((fact) => !supported(fact, terms, nums));
  const score = (facts.length - missing.length) / facts.length;
  if (missing.length === 0) return reply(true, 1, `all ${facts.length} reference fact(s) are in the context`);
  return reply(false, score, `not in the context: "${missing[0]!.slice(0, 120)}"`);
}

/** The rubric grading of judge.ts, answered in JSON. */
function rubric(rubricText: string, answer: string, verdictGrader: (prompt: string) => string): string {
  const verdict = verdictGrader(`RUBRIC:\n${rubricText}\nANSWER:\n${answer}`);
  const pass = /^VERDICT: PASS/.test(verdict);
  const reason = /Reason: (.*)/.exec(verdict)?.[1] ?? '';
  return reply(pass, pass ? 1 : 0, reason);
}

/**
 * The JSON reply to a grading prompt. `ownContext` gives the judge chat's own documents' passages
 * for a question, used for faithfulness when the prompt brings no CONTEXT.
 */
export function gradeJson(prompt: string, verdictGrader: (prompt: string) => string, ownContext: (question: string) => string): string {
  const s = parseSections(prompt);
  const answer = s.ANSWER ?? '';
  if (s.RUBRIC !== undefined) return rubric(s.RUBRIC, answer, verdictGrader);
  if (s.REFERENCE !== undefined && s.ANSWER !== undefined) return factuality(s.REFERENCE, answer);
  if (s.REFERENCE !== undefined) return recall(s.REFERENCE, s.CONTEXT ?? ownContext(s.QUESTION ?? s.REFERENCE));
  if (s.CONTEXT !== undefined || /CONTEXT/.test(s.TASK ?? '')) return faithfulness(s.CONTEXT ?? ownContext(s.QUESTION ?? answer), answer);
  if (s.QUESTION !== undefined) return relevance(s.QUESTION, answer);
  return reply(false, 0, 'the prompt names nothing to grade (RUBRIC, REFERENCE, CONTEXT or QUESTION)');
}

/** What a babbling grader says: no JSON, no verdict (the `--judge-fault-rate` fault). */
export const BABBLE = 'Well, that is an interesting answer. There is a lot one could say about it, and much depends on the point of view.';
