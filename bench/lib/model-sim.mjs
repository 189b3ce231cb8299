// A seeded peer of known per-question pass probabilities, answered by two models and summarised by
// kbbench's own per-question statistics (createCaseStats → model_pairs), for the calibration bench.
import { seeded } from './synthetic.mjs';

/**
 * One simulated run. Question i has a true pass probability p_i for model a, drawn uniform in
 * [0.1, 0.75] (mean 0.425, the population truth); model b's is p_i + delta, so the true difference
 * is exactly delta. Each repeat of a question is, with probability `correlation`, the question's
 * one latent answer (the same text again), else a fresh draw: the marginal rate stays p_i while
 * repeats agree far more than independent draws would. With `threadSize` > 1 consecutive questions
 * form a thread sharing a difficulty shift (a cluster).
 */
export function simulateRun(createCaseStats, { seed, questions = 200, delta = 0, repeats = 1, correlation = 0, threadSize = 1 }) {
  const random = seeded(seed);
  const stats = createCaseStats({});
  const pOf = [];
  let threadShift = 0;
  for (let i = 0; i < questions; i++) {
    if (i % threadSize === 0) threadShift = threadSize > 1 ? (random() - 0.5) * 0.3 : 0;
    const p = Math.min(0.75, Math.max(0.1, 0.1 + random() * 0.65 + threadShift));
    pOf.push(p);
    const thread = threadSize > 1 ? `t${Math.floor(i / threadSize)}` : null;
    for (const [model, pm] of [['a', p], ['b', p + delta]]) {
      const latent = random() < pm;
      for (let r = 1; r <= repeats; r++) {
        const pass = r === 1 || random() < correlation ? latent : random() < pm;
        stats.add(sampleOf(i, thread, threadSize, model, r, pass, random));
      }
    }
  }
  const result = stats.finish(['a', 'b']);
  result.table.dispose();
  return { questions: result.questions, truthA: pOf.reduce((s, p) => s + p, 0) / questions };
}

function sampleOf(i, thread, threadSize, model, repeat, pass, random) {
  const latencyMs = 800 + random() * 400;
  return {
    item_id: `q${i}:${model}:r${repeat}`, case_id: thread ? null : `q${i}`, thread_id: thread, turn: thread ? (i % threadSize) + 1 : null,
    model, repeat, endpoint: 'ask', offset_ms: i * 10 + repeat, outcome: 'ok', status: 200, error: null, pass, checks: [],
    ttfc_ms: latencyMs / 3, latency_ms: latencyMs, credits_used: 0.001, credits_unknown: false,
  };
}

/** Wilson over every answer as if independent: what counting repeats as separate answers would claim. */
export function naiveInterval(passRate, answers) {
  const z = 1.959964;
  const z2n = (z * z) / answers;
  const centre = (passRate + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((passRate * (1 - passRate)) / answers + z2n / (4 * answers));
  return [centre - half, centre + half];
}

/** Runs `seeds` simulated runs of one scenario and counts verdicts and coverage. */
export function scenarioFigures(createCaseStats, scenario, seeds, firstSeed = 1) {
  const truthMean = (0.1 + 0.75) / 2;
  let calledDifferent = 0;
  let calledBetter = 0;
  let coverA = 0;
  let coverDiff = 0;
  let coverNaive = 0;
  const detectable = [];
  for (let s = 0; s < seeds; s++) {
    const { questions } = simulateRun(createCaseStats, { ...scenario, seed: firstSeed + s * 7919 });
    const pair = questions.pairs[0];
    const a = questions.models.get('a');
    const truthA = scenario.threadSize > 1 ? null : truthMean;
    if (pair.pass_rate.verdict !== 'no_difference') calledDifferent++;
    if (pair.pass_rate.verdict === 'b_better') calledBetter++;
    const [lo, hi] = a.pass_rate_ci95;
    if (truthA !== null && truthA >= lo && truthA <= hi) coverA++;
    const [dlo, dhi] = pair.pass_rate.ci95;
    if (scenario.delta >= dlo && scenario.delta <= dhi) coverDiff++;
    const [nlo, nhi] = naiveInterval(a.pass_at_1, a.answers);
    if (truthA !== null && truthA >= nlo && truthA <= nhi) coverNaive++;
    detectable.push(pair.detectable_difference);
  }
  detectable.sort((x, y) => x - y);
  return {
    seeds, called_different: calledDifferent, called_b_better: calledBetter,
    // Threads shift difficulty with clamping: the population rate is not known in closed form there.
    coverage_a: scenario.threadSize > 1 ? null : coverA / seeds, coverage_difference: coverDiff / seeds,
    coverage_naive_a: scenario.threadSize > 1 ? null : coverNaive / seeds,
    detectable_p50: detectable[Math.floor(seeds / 2)],
  };
}
