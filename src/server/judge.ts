// The judge chat's grading: does the graded answer contain what the rubric asks for?
//
// Expected prompt (sections may come in either order; headings are case-insensitive):
//   RUBRIC:
//   The answer must mention "30 days" and "original payment method".
//   ANSWER:
//   <the answer being graded, any number of lines>
// Reply: first line `VERDICT: PASS` or `VERDICT: FAIL`, second line `Reason: …` (one line).
import { contentTerms, stem, tokenize } from './text-terms.js';

/** Words a rubric uses about answers rather than about the subject; never required in the answer. */
const RUBRIC_WORDS = new Set(
  `answer answers must should mention mentions mentioned state states say says said include includes
  included correct correctly response reply explain explains note notes contain contains refer refers
  clearly word words phrase user customer question ask asks asked give gives given`
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .map(stem),
);

/** Share of rubric content words that must appear when the rubric quotes no phrases. */
export const CONTENT_WORD_PASS_SHARE = 0.75;

export interface JudgePrompt {
  rubric: string;
  answer: string;
}

/** Splits a judge prompt into its RUBRIC and ANSWER sections; undefined when either is missing. */
export function parseJudgePrompt(prompt: string): JudgePrompt | undefined {
  const rubricAt = /^\s*RUBRIC:\s*/im.exec(prompt);
  const answerAt = /^\s*ANSWER:\s*/im.exec(prompt);
  if (!rubricAt || !answerAt) return undefined;
  const section = (start: RegExpExecArray, other: RegExpExecArray): string => {
    const from = start.index + start[0].length;
    const to = other.index > start.index ? other.index : prompt.length;
    return prompt.slice(from, to).trim();
  };
  return { rubric: section(rubricAt, answerAt), answer: section(answerAt, rubricAt) };
}

/** Phrases in straight or curly double quotes. */
export function quotedPhrases(rubric: string): string[] {
  return [...rubric.matchAll(/"([^"]+)"|“([^”]+)”/g)]
    .map((match) => (match[1] ?? match[2] ?? '').trim())
    .filter((phrase) => phrase.length > 0);
}

const normalise = (text: string): string => tokenize(text).join(' ');

function gradeByPhrases(phrases: readonly string[], answer: string): string {
  const haystack = ` ${normalise(answer)} `;
  const missing = phrases.filter((phrase) => !haystack.includes(` ${normalise(phrase)} `));
  if (missing.length === 0) return `VERDICT: PASS\nReason: the answer contains all ${phrases.length} required phrase(s): ${phrases.map((p) => JSON.stringify(p)).join(', ')}.`;
  return `VERDICT: FAIL\nReason: the answer is missing ${missing.map((p) => JSON.stringify(p)).join(', ')}.`;
}

function gradeByContentWords(rubric: string, answer: string): string {
  const wanted = [...new Set(contentTerms(rubric).filter((term) => !RUBRIC_WORDS.has(term)))];
  if (wanted.length === 0) return 'VERDICT: FAIL\nReason: the rubric names nothing to look for.';
  const present = new Set(contentTerms(answer));
  const missing = wanted.filter((term) => !present.has(term));
  const share = (wanted.length - missing.length) / wanted.length;
  const verdict = share >= CONTENT_WORD_PASS_SHARE ? 'PASS' : 'FAIL';
  const detail = missing.length === 0 ? 'all rubric terms present' : `missing terms: ${missing.join(', ')}`;
  return `VERDICT: ${verdict}\nReason: ${Math.round(share * 100)}% of rubric terms found (${detail}).`;
}

/** The judge chat's reply to a prompt in the format above. */
export function judgeAnswer(prompt: string): string {
  const parsed = parseJudgePrompt(prompt);
  if (!parsed) return 'VERDICT: FAIL\nReason: the prompt needs a RUBRIC: section and an ANSWER: section.';
  if (parsed.answer === '') return 'VERDICT: FAIL\nReason: the answer is empty.';
  const phrases = quotedPhrases(parsed.rubric);
  return phrases.length > 0 ? gradeByPhrases(phrases, parsed.answer) : gradeByContentWords(parsed.rubric, parsed.answer);
}
