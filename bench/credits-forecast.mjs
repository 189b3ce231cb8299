// Bench: does the credit forecast's 95% interval hold the truth? 200 simulated suites (compute only,
// nothing is sent): per suite, items with a cost that depends partly on what is known beforehand (input
// size, turn position), models that differ in scale and a little in shape, and repeats that scatter.
// A stratified sample of the distinct items (one repeat each) — or a whole earlier run, for `--from` —
// goes to the same forecastItems() the CLI uses; the truth is one more draw of the full run.
import { forecastItems } from '../dist/credits/item-forecast.js';
import { printMethod, printTable, round } from './lib/stats.mjs';
import { seeded } from './lib/synthetic.mjs';

const SUITES = 200;

function normal(random) {
  const u = Math.max(1e-12, random());
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** One simulated suite: its plan's distinct items per model and each item's expected cost. */
function simulateSuite(random) {
  const models = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, m) => ({ name: `m${m}`, scale: Math.exp(normal(random) * 1.5) }));
  const spread = 0.3 + random() * 0.5;
  const sizeEffect = random() * 0.8;
  const repeats = [1, 2, 4][Math.floor(random() * 3)];
  const repeatCv = [0, 0.05, 0.15][Math.floor(random() * 3)];
  const cases = 8 + Math.floor(random() * 52);
  const threads = Math.floor(random() * 5);
  const params = { models, spread, sizeEffect, repeats, repeatCv, cases, threads: Array.from({ length: threads }, () => 2 + Math.floor(random() * 4)) };
  return { ...questionsOf(random, params), repeats, repeatCv, params };
}

/** The suite's questions (cases, and threads of turns) drawn from its distribution: called again, new questions of the same kind. */
function questionsOf(random, { models, spread, sizeEffect, repeats, cases, threads }, prefix = '') {
  const base = [];
  for (let i = 0; i < cases; i++) base.push({ key: `case:${prefix}${i}`, turn: null, inputChars: 20 + Math.floor(random() * 180), cost: Math.exp(normal(random) * spread) });
  threads.forEach((turns, t) => {
    const topic = Math.exp(normal(random) * spread);
    let history = 0;
    for (let k = 1; k <= turns; k++) {
      history += 20 + Math.floor(random() * 80);
      base.push({ key: `turn:${prefix}t${t}#${k}`, turn: k, inputChars: history, cost: topic * (1 + 0.3 * (k - 1)) });
    }
  });
  const items = [];
  for (const model of models) {
    for (const b of base) {
      // Cost: the item's own, the model's scale, a little model-specific shape, and the known input size.
      const mean = b.cost * model.scale * Math.exp(normal(random) * 0.15) * (1 + (sizeEffect * b.inputChars) / 100) * 0.01;
      items.push({ model: model.name, key: b.key, inputChars: b.inputChars, turn: b.turn, repeats, mean });
    }
  }
  return { items };
}

/** Traffic of new questions like the suite's: 20 fresh draws of its questions, each asked as the plan asks its own. */
const NEW_QUESTION_DRAWS = 20;

const draw = (random, item, cv) => Math.round(item.mean * Math.exp(normal(random) * cv - (cv * cv) / 2) * 1e5) / 1e5;

function tally(model, key, costs) {
  const mean = costs.reduce((a, b) => a + b, 0) / costs.length;
  return { model, key, count: costs.length, mean, ss: costs.reduce((a, c) => a + (c - mean) ** 2, 0) };
}

/**
 * A stratified sample: per model, a share of its distinct items (at least two), one repeat each. As
 * the CLI's selectSample(): the first model's cases are a random share; every other model is asked a
 * quarter of them too (at least one: the linking cases) and a random share of the rest. `linked: false`
 * samples each model apart (the design before the cross-model ratio).
 */
function sampleItems(random, suite, percent, linked = true) {
  const byModel = new Map();
  for (const item of suite.items) byModel.set(item.model, [...(byModel.get(item.model) ?? []), item]);
  const observed = [];
  let links = null;
  for (const items of byModel.values()) {
    const n = Math.min(items.length, Math.max(2, Math.ceil((percent / 100) * items.length)));
    const shuffle = (xs) => xs.map((x) => [random(), x]).sort((a, b) => a[0] - b[0]).map(([, x]) => x);
    let picked;
    if (links === null || !linked) {
      picked = shuffle(items).slice(0, n);
      const cases = picked.filter((i) => i.turn === null).map((i) => i.key);
      links = cases.slice(0, cases.length === 0 ? 0 : Math.max(1, Math.round(cases.length / 4)));
    } else {
      const shared = items.filter((i) => links.includes(i.key)).slice(0, Math.max(1, Math.round(n / 4)));
      picked = [...shared, ...shuffle(items.filter((i) => !shared.includes(i))).slice(0, n - shared.length)];
    }
    for (const item of picked) observed.push(tally(item.model, item.key, [draw(random, item, suite.repeatCv)]));
  }
  return observed;
}

/** An earlier full run: every item, every repeat. */
const fullRun = (random, suite) => suite.items.map((item) => tally(item.model, item.key, Array.from({ length: item.repeats }, () => draw(random, item, suite.repeatCv))));

const truthOf = (random, suite) => suite.items.reduce((a, item) => a + Array.from({ length: item.repeats }, () => draw(random, item, suite.repeatCv)).reduce((x, y) => x + y, 0), 0);

function scenario(name, observe, newQuestions = false) {
  const random = seeded(20261123);
  let covered = 0;
  const halfWidths = [];
  const errors = [];
  for (let s = 0; s < SUITES; s++) {
    // The sample draws from its own stream: every scenario sees the same suites and the same truths.
    const suite = simulateSuite(random);
    const sampleSeed = Math.floor(random() * 2 ** 31);
    let truth = truthOf(random, suite);
    let options = { level: 0.95 };
    if (newQuestions) {
      // The truth is the spend of new questions drawn from the suite's distribution; the forecast a volume of that many requests.
      const fresh = seeded(sampleSeed ^ 0x5bd1e995);
      const traffic = Array.from({ length: NEW_QUESTION_DRAWS }, (_, d) => questionsOf(fresh, suite.params, `new${d}-`).items).flat();
      truth = truthOf(fresh, { ...suite, items: traffic });
      options = { level: 0.95, volume: traffic.reduce((a, item) => a + item.repeats, 0) };
    }
    const f = forecastItems(suite.items, observe(seeded(sampleSeed), suite), options);
    if (truth >= f.total.low - 1e-9 && truth <= f.total.high + 1e-9) covered++;
    halfWidths.push((f.total.high - f.total.low) / 2 / truth);
    errors.push(Math.abs(f.total.credits / truth - 1));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { scenario: name, suites: SUITES, coverage: round(covered / SUITES, 3), median_half_width_pct: round(100 * median(halfWidths), 1), median_error_pct: round(100 * median(errors), 1) };
}

export async function benchCreditsForecast() {
  printMethod('forecastItems() on 200 simulated suites per scenario; coverage = share of suites whose 95% interval holds the simulated run\'s spend (for --requests N: the spend of N requests of new questions drawn from the suite\'s distribution, 20 fresh draws of its questions); half-width and error relative to that spend');
  const rows = [
    scenario('--sample 10%, models sampled apart', (r, s) => sampleItems(r, s, 10, false)),
    scenario('--sample 10%', (r, s) => sampleItems(r, s, 10)),
    scenario('--sample 20%, models sampled apart', (r, s) => sampleItems(r, s, 20, false)),
    scenario('--sample 20%', (r, s) => sampleItems(r, s, 20)),
    scenario('--sample 30%', (r, s) => sampleItems(r, s, 30)),
    scenario('--from a full earlier run', fullRun),
    scenario('--requests N of new questions, --from a full run', fullRun, true),
    scenario('--requests N of new questions, --sample 30%', (r, s) => sampleItems(r, s, 30), true),
  ];
  printTable('credit forecast: 95% interval coverage over simulated suites', ['scenario', 'suites', 'coverage', 'median_half_width_pct', 'median_error_pct'], rows);
  return { rows };
}
