// deploy/grafana/kbbench.json: a dashboard Grafana imports, whose every query reads metrics the outputs
// really emit. Grafana publishes no maintained JSON Schema of a dashboard on npm; @grafana/schema ships
// the dashboard model as TypeScript types generated from Grafana's own CUE schema. So the dashboard is
// parsed with a zod schema of the fields Grafana needs to import and draw it, and tsc checks that what
// that schema yields is a @grafana/schema `Dashboard` (its enums taken from the same package). Queries
// are parsed with Prometheus's own PromQL grammar (@prometheus-io/lezer-promql), and their metric names
// checked against PROM_METRICS, the names the prometheus-rw and otlp outputs send: renaming a metric
// there fails this test until the dashboard follows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DashboardCursorSync, VariableHide, VariableRefresh, VariableSort, defaultDashboard, type Dashboard } from '@grafana/schema';
import { parser } from '@prometheus-io/lezer-promql';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PROM_METRICS } from '../src/outputs/prometheus/series.js';
import { ROOT } from './helpers.js';

const FILE = join(ROOT, 'deploy', 'grafana', 'kbbench.json');
const DATASOURCE = z.object({ type: z.literal('prometheus'), uid: z.literal('${datasource}') });
const gridPos = z.object({ h: z.int().min(1), w: z.int().min(1).max(24), x: z.int().min(0).max(23), y: z.int().min(0) });
const target = z.object({ refId: z.string().min(1), expr: z.string().min(1), legendFormat: z.string(), datasource: DATASOURCE });
const panel = z.object({
  type: z.enum(['timeseries', 'stat']), id: z.int().positive(), title: z.string().min(1), description: z.string().min(1),
  gridPos, datasource: DATASOURCE, targets: z.array(target).min(1),
  fieldConfig: z.object({ defaults: z.object({ unit: z.string().min(1) }), overrides: z.array(z.never()) }),
});
const row = z.object({ type: z.literal('row'), id: z.int().positive(), title: z.string().min(1), collapsed: z.boolean(), panels: z.array(z.never()), gridPos });
const variable = z.object({
  name: z.string().regex(/^\w+$/), label: z.string(), type: z.enum(['datasource', 'query']),
  query: z.union([z.string(), z.object({ query: z.string().min(1), refId: z.string() })]),
  datasource: DATASOURCE.optional(), definition: z.string().optional(), refresh: z.enum(VariableRefresh), hide: z.enum(VariableHide),
  sort: z.enum(VariableSort).optional(), includeAll: z.boolean(), multi: z.boolean(), allValue: z.string().optional(),
});
const dashboardSchema = z.object({
  uid: z.string().regex(/^[\w-]{1,40}$/), title: z.string().min(1), description: z.string(), tags: z.array(z.string()),
  editable: z.boolean(), graphTooltip: z.enum(DashboardCursorSync), refresh: z.string(), timezone: z.string(),
  // 36: datasource variables as `${datasource}` uids; at most what the newest Grafana writes.
  schemaVersion: z.int().min(36).max(defaultDashboard.schemaVersion ?? 42),
  time: z.object({ from: z.string(), to: z.string() }),
  templating: z.object({ list: z.array(variable) }),
  panels: z.array(z.discriminatedUnion('type', [row, panel])).min(1),
});

function loadDashboard(json: unknown = JSON.parse(readFileSync(FILE, 'utf8'))) {
  const parsed = dashboardSchema.parse(json);
  // The compile-time half of the check: the zod schema's output is Grafana's own dashboard model.
  const grafana: Dashboard = parsed;
  return { parsed, grafana };
}

/** Labels the outputs put on their series (series.ts: the run's labels, then each metric's own). */
const LABELS = new Set(['run_id', 'suite', 'shard', 'model', 'outcome', 'kind', 'quantile']);

interface QueryFacts {
  errors: number[];
  metrics: string[];
  labels: string[];
}

/** A query parsed by Prometheus's grammar, Grafana's macros replaced as Grafana does before sending it. */
function factsOf(expr: string): QueryFacts {
  const promql = expr.replaceAll('$__rate_interval', '1m').replaceAll('$__interval', '1m').replaceAll('$__range', '15m');
  const facts: QueryFacts = { errors: [], metrics: [], labels: [] };
  const cursor = parser.parse(promql).cursor();
  do {
    if (cursor.type.isError) facts.errors.push(cursor.from);
    else if (cursor.name === 'Identifier' && cursor.node.parent?.name === 'VectorSelector') facts.metrics.push(promql.slice(cursor.from, cursor.to));
    else if (cursor.name === 'LabelName') facts.labels.push(promql.slice(cursor.from, cursor.to));
  } while (cursor.next());
  return facts;
}

/** What the dashboard sends: every panel's queries, and each query variable's series selector. */
function queriesOf(parsed: z.infer<typeof dashboardSchema>): Array<{ where: string; expr: string }> {
  const queries: Array<{ where: string; expr: string }> = [];
  for (const p of parsed.panels) if (p.type !== 'row') for (const t of p.targets) queries.push({ where: `panel "${p.title}" ${t.refId}`, expr: t.expr });
  for (const v of parsed.templating.list) {
    if (v.type !== 'query' || typeof v.query === 'string') continue;
    const selector = /^label_values\((.+),\s*(\w+)\)$/.exec(v.query.query);
    expect(selector, `variable ${v.name}: label_values(selector, label)`).not.toBeNull();
    queries.push({ where: `variable ${v.name}`, expr: selector![1]! });
  }
  return queries;
}

const EMITTED = new Set<string>(Object.values(PROM_METRICS));

describe('deploy/grafana/kbbench.json', () => {
  const { parsed } = loadDashboard();
  const queries = queriesOf(parsed);

  it('parses as a Grafana dashboard; the check refuses a panel without a place, an unknown panel type, a bad enum', () => {
    const json = JSON.parse(readFileSync(FILE, 'utf8'));
    const broken = (patch: (d: typeof json) => void): unknown => {
      const copy = structuredClone(json);
      patch(copy);
      return copy;
    };
    expect(() => loadDashboard(broken((d) => delete d.panels[1].gridPos))).toThrow(/gridPos/);
    expect(() => loadDashboard(broken((d) => (d.panels[1].type = 'graph-old')))).toThrow(/type/);
    expect(() => loadDashboard(broken((d) => (d.templating.list[1].refresh = 7)))).toThrow(/refresh/);
  });

  it('every query is PromQL and reads only metrics and labels the outputs emit', () => {
    expect(queries.length).toBeGreaterThan(20);
    for (const { where, expr } of queries) {
      const facts = factsOf(expr);
      expect(facts.errors, `${where}: ${expr}`).toEqual([]);
      expect(facts.metrics.length, `${where} reads a metric`).toBeGreaterThan(0);
      for (const metric of facts.metrics) expect(EMITTED, `${where} reads ${metric}`).toContain(metric);
      for (const label of facts.labels) expect(LABELS, `${where} uses label ${label}`).toContain(label);
    }
    // The check is live: a renamed metric, an unknown label and broken PromQL are each caught.
    expect(factsOf('sum(rate(kbbench_request_total{run_id=~"$run_id"}[$__rate_interval]))').metrics.every((m) => EMITTED.has(m))).toBe(false);
    expect(factsOf('sum by (pod) (kbbench_in_flight)').labels.every((l) => LABELS.has(l))).toBe(false);
    expect(factsOf('sum(rate(kbbench_starts_total[5m])').errors.length).toBeGreaterThan(0);
  });

  it('shows what the issue asks for: rates, in flight, dropped, TTFC and latency (corrected too), errors, credits per minute, per shard', () => {
    const read = new Set(queries.flatMap((q) => factsOf(q.expr).metrics));
    for (const name of [PROM_METRICS.requests, PROM_METRICS.starts, PROM_METRICS.dropped, PROM_METRICS.inFlight, PROM_METRICS.ttfc, PROM_METRICS.latency,
      PROM_METRICS.correctedLatency, PROM_METRICS.errors, PROM_METRICS.credits]) expect(read, name).toContain(name);
    const exprs = queries.map((q) => q.expr);
    expect(exprs.some((e) => e.includes('sum by (kind)') && e.includes(PROM_METRICS.errors))).toBe(true);
    expect(exprs.some((e) => e.includes(PROM_METRICS.credits) && e.includes('rate(') && e.endsWith('* 60'))).toBe(true);
    const perShard = parsed.panels.filter((p) => p.type !== 'row' && p.targets.every((t) => /by \(shard\)/.test(t.expr)));
    expect(perShard.length).toBeGreaterThanOrEqual(4);
  });

  it('has a Prometheus datasource variable and run_id/suite/shard variables that every panel query filters by', () => {
    const vars = Object.fromEntries(parsed.templating.list.map((v) => [v.name, v]));
    expect(vars.datasource).toMatchObject({ type: 'datasource', query: 'prometheus' });
    for (const name of ['run_id', 'suite', 'shard']) expect(vars[name]?.type).toBe('query');
    for (const p of parsed.panels) {
      if (p.type === 'row') continue;
      for (const t of p.targets) {
        const selectors = t.expr.match(/kbbench_\w+\{[^}]*\}/g) ?? [];
        expect(selectors.length).toBe(factsOf(t.expr).metrics.length);
        for (const s of selectors) expect(s, `${p.title}: ${s}`).toMatch(/run_id=~"\$run_id", suite=~"\$suite", shard=~"\$shard"/);
      }
    }
  });

  it('lays panels out on the 24-column grid without overlaps, with unique ids', () => {
    const ids = parsed.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const cells = new Set<string>();
    for (const p of parsed.panels) {
      expect(p.gridPos.x + p.gridPos.w, p.title).toBeLessThanOrEqual(24);
      for (let x = p.gridPos.x; x < p.gridPos.x + p.gridPos.w; x += 1) {
        for (let y = p.gridPos.y; y < p.gridPos.y + p.gridPos.h; y += 1) {
          expect(cells.has(`${x},${y}`), `${p.title} overlaps at ${x},${y}`).toBe(false);
          cells.add(`${x},${y}`);
        }
      }
    }
  });
});
