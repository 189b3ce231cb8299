import { describe, expect, it } from 'vitest';
import type { HistoryJson, HistorySeries } from '../types.js';
import { MAX_FLIP_ROWS, renderHistoryHtml } from './render.js';

const EVIL = `</title></script><script>alert(1)</script><img src=x onerror=alert(2)>"'&\u202E\u0000`;

function hostileHistory(): HistoryJson {
  const points = [0, 1, 2, 3].map((i) => ({
    run_id: `${EVIL}${i}`, started_at: `2026-11-2${i}T00:00:00Z`, label: EVIL, commit: EVIL, value: i < 2 ? 1 : 0.5,
    ci95: [0.4, 1] as [number, number], report: `javascript:alert(3)/${i}`,
  }));
  const series: HistorySeries[] = [
    { suite: EVIL, model: EVIL, metric: 'pass_rate', points },
    { suite: EVIL, model: '*', tag: EVIL, metric: 'latency_ms_p95', points: points.map((p) => ({ ...p, value: 100 })) },
  ];
  return {
    generated_by: { name: 'kbbench', version: '0.1.0' },
    method: { change_points: 'e-divisive', significance: 0.01, permutations: 499, min_segment: 2, seed: 1 },
    runs: points.map((p) => ({ run_id: p.run_id, suite: EVIL, started_at: p.started_at, label: EVIL, commit: EVIL, status: EVIL, verdict: EVIL, knowledge_base: { version: EVIL, sha256: EVIL }, report: p.report })),
    series,
    change_points: [{ suite: EVIL, model: EVIL, metric: 'pass_rate', run_id: points[2]!.run_id, started_at: EVIL, label: EVIL, commit: EVIL, previous_run_id: points[1]!.run_id, previous_label: EVIL, before: 1, after: 0.5, p_value: 0.002 }],
    flips: [{ suite: EVIL, model: EVIL, item: EVIL, runs: [{ run_id: points[2]!.run_id, passed: false }], kind: 'regressed' }],
    flaky: [],
    skipped: [],
  };
}

describe('history.html bounds', () => {
  it('shows at most MAX_FLIP_ROWS flips, flaky ones first, and says how many history.json has', () => {
    const json = hostileHistory();
    json.flips = Array.from({ length: MAX_FLIP_ROWS + 5 }, (_, i) => ({ suite: 's', model: 'm', item: `case:q${i}`, runs: [], kind: i === MAX_FLIP_ROWS + 4 ? ('flaky' as const) : ('regressed' as const) }));
    const page = renderHistoryHtml(json);
    expect(page.match(/class="kind-/g)).toHaveLength(MAX_FLIP_ROWS);
    expect(page).toContain(`case:q${MAX_FLIP_ROWS + 4}`);
    expect(page).toContain(`The first ${MAX_FLIP_ROWS} of ${MAX_FLIP_ROWS + 5} shown`);
  });
});

describe('history.html', () => {
  const html = renderHistoryHtml(hostileHistory());

  it('keeps hostile names inert: escaped, no markup of theirs, one script (ours)', () => {
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain('<img');
    // Attribute values emptied first: what is left of every tag is its own markup.
    expect(html.replace(/"[^"]*"/g, '""')).not.toMatch(/<[^>]*\sonerror=/);
    // A link is relative, or not drawn: no scheme (javascript:) reaches an href.
    expect(html).not.toMatch(/href="[a-z][a-z0-9+.-]*:/i);
    expect(html).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(html).not.toContain('\u0000');
  });

  it('isolates names with <bdi> against bidi overrides, and forbids the network by CSP', () => {
    expect(html).toContain('<bdi');
    expect(html).toContain("default-src 'none'");
  });

  it('draws a chart per series, with a band and a change point on the pass rate', () => {
    expect(html.match(/<svg class="chart"/g)).toHaveLength(2);
    expect(html).toContain('class="band"');
    expect(html).toContain('class="change"');
  });
});
