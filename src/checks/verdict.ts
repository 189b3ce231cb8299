// The older grading reply, `VERDICT: PASS|FAIL` and a reason: the fallback the grading protocol accepts.

export type Verdict = { verdict: 'pass' | 'fail'; reason: string } | { verdict: null; problem: string };

/**
 * Finds `VERDICT: PASS|FAIL` in a reply, tolerant of case and markdown (`**Verdict:** Pass`,
 * `## VERDICT - FAIL`). A reply that names both verdicts is treated as unparseable: guessing
 * which one the judge meant could turn a failure into a pass.
 */
export function parseVerdict(reply: string): Verdict {
  const plain = reply.replace(/[*_`#>]/g, '');
  const found = [...plain.matchAll(/\bverdict\s*[:=\-–—]?\s*(pass|fail)(?:ed|es)?\b/gi)];
  const verdicts = new Set(found.map((m) => (m[1] ?? '').toLowerCase() as 'pass' | 'fail'));
  if (verdicts.size === 0) return { verdict: null, problem: 'the judge reply has no "VERDICT: PASS" or "VERDICT: FAIL"' };
  if (verdicts.size > 1) return { verdict: null, problem: 'the judge reply gives both VERDICT: PASS and VERDICT: FAIL' };
  const [verdict] = verdicts as Set<'pass' | 'fail'>;
  const first = found[0];
  const after = first === undefined ? '' : plain.slice((first.index ?? 0) + first[0].length);
  const reason = after.replace(/^[\s.:;,\-–—]+/, '').replace(/\s+/g, ' ').trim();
  return { verdict: verdict ?? 'fail', reason };
}
