// report.html's header: suite, target, times, verdict, and the run's totals as key figures.
import { judgeShareWords } from '../../metrics/goodput.js';
import { DEMO_ANSWERS_NOTICE, type RunInfo } from '../../domain/run.js';
import type { Summary } from '../../domain/summary.js';
import { formatCount, formatCreditAmount, formatDurationMs, formatRate, formatTimestamp } from '../format.js';
import { esc } from './escape.js';

function kpi(label: string, value: string, sub = ''): string {
  return `<div class="kpi"><div class="label">${esc(label)}</div><div class="value">${esc(value)}</div>${sub ? `<div class="sub">${esc(sub)}</div>` : ''}</div>`;
}

function plural(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

function metaItem(term: string, value: string, mono = false): string {
  return `<div><dt>${esc(term)}</dt><dd${mono ? ' class="mono"' : ''}>${esc(value)}</dd></div>`;
}

export function verdictBadge(verdict: Summary['verdict']): string {
  if (verdict === 'incomplete') return '<span class="verdict incomplete">◌ INCOMPLETE</span>';
  return verdict === 'pass'
    ? '<span class="verdict pass">✓ PASS</span>'
    : '<span class="verdict fail">✗ FAIL</span>';
}

export function renderHeader(run: RunInfo, summary: Summary): string {
  const t = summary.totals;
  const target = run.target.embedded ? `${run.target.base_url} (embedded reference service)` : run.target.base_url;
  const meta = [
    metaItem('Target', target, true),
    metaItem('Board / chat', [run.target.board_id, run.target.chat_id].filter(Boolean).join(' / ') || '–', true),
    metaItem('Started', formatTimestamp(run.started_at)),
    metaItem('Duration', formatDurationMs(t.duration_ms)),
    metaItem('Status', run.stop_reason ? `${summary.status}: ${run.stop_reason}` : summary.status),
    metaItem('Run', summary.run_id, true),
    metaItem('Suite file', run.suite.path, true),
    metaItem('Tool', `${run.tool.name} ${run.tool.version}`),
  ];
  const errorsSub = t.skipped > 0 ? plural(t.skipped, 'turn skipped', 'turns skipped') : plural(t.retries, 'retry', 'retries');
  const kpis = [
    kpi('Requests', formatCount(t.requests), t.requests_per_s !== null ? `${t.requests_per_s} req/s${typeof t.starts_per_s === 'number' ? ` · ${t.starts_per_s} starts/s` : ''}` : ''),
    kpi('Pass rate', formatRate(t.pass_rate), `${formatCount(t.passed)} passed · ${formatCount(t.failed)} failed${(t.not_judged ?? 0) > 0 ? ` · ${formatCount(t.not_judged)} not judged` : ''}${summary.judge_sample ? ` · ${judgeShareWords(summary.judge_sample.share)}` : ''}`),
    kpi('Errors', formatCount(t.errors), errorsSub),
    kpi('Credits spent', formatCreditAmount(t.credits_used), t.credits_unknown > 0 ? `${formatCount(t.credits_unknown)} unknown` : `${formatCreditAmount(t.credits_per_request)} per request`),
    kpi(
      'Credits remaining',
      formatCreditAmount(t.credits_remaining),
      // Streamed answers report credits_used alone (interface.md): say why the balance is missing.
      t.credits_remaining === null ? 'not reported by streamed answers' : 'latest balance reported',
    ),
    kpi('Models', formatCount(Object.keys(summary.models).length), `${formatCount(summary.cases_truncated?.distinct ?? summary.cases.length)} cases and turns`),
  ];
  const g = summary.grading;
  if (g !== undefined) {
    const answers = t.answer_credits_used ?? t.credits_used - t.check_credits_used;
    kpis.push(kpi('Grading', `${formatCreditAmount(g.credits_used)} credits${g.tokens > 0 ? ` + ${formatCount(g.tokens)} tokens` : ''}`, `answers ${formatCreditAmount(answers)} credits · by ${g.graders.map((x) => x.grader).join('; ')}`));
  }
  if (t.dropped > 0) kpis.push(kpi('Dropped', formatCount(t.dropped), 'open-loop starts never sent'));
  if (t.unreadable_lines > 0) kpis.push(kpi('Unreadable lines', formatCount(t.unreadable_lines), 'in results.ndjson'));
  return `<header class="page-header"><div class="wrap">
<div class="title-row"><h1><span class="tool">kbbench ·</span> ${esc(run.suite.name)}</h1>${verdictBadge(summary.verdict)}</div>
${run.knowledge_base?.demo ? `<p class="demo-notice"><strong>Demo:</strong> ${esc(DEMO_ANSWERS_NOTICE)}.</p>` : ''}
<dl class="meta">${meta.join('')}</dl>
<div class="kpis">${kpis.join('')}</div>
</div></header>`;
}
