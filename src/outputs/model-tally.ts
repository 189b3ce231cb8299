// Per model, per second: the result lines by outcome and their credits, which a timeline line does
// not carry (it is the whole run's second). Keyed by the recorder's own second (wall-clock second of
// the monotonic instant the result was recorded at), so a closed second takes exactly its results.
import { sampleCreditUnits } from '../credits/units.js';
import type { Sample } from '../domain/sample.js';
import type { ModelSecond } from './output.js';

export class ModelTally {
  /** Only the seconds not yet taken: one or two open seconds, whatever the run's length. */
  private readonly seconds = new Map<number, Record<string, ModelSecond>>();

  constructor(private readonly wallOriginMs: number) {}

  add(sample: Pick<Sample, 'model' | 'outcome' | 'credits_used' | 'checks'>, atMonoMs: number): void {
    const t = Math.floor((this.wallOriginMs + atMonoMs) / 1000);
    let models = this.seconds.get(t);
    if (models === undefined) {
      models = Object.create(null) as Record<string, ModelSecond>;
      this.seconds.set(t, models);
    }
    const model = (models[sample.model] ??= { outcomes: Object.create(null) as Record<string, number>, credit_units: 0 });
    model.outcomes[sample.outcome] = (model.outcomes[sample.outcome] ?? 0) + 1;
    model.credit_units += sampleCreditUnits(sample);
  }

  /** The tallies of second `t` and any earlier one not yet taken (`t` Infinity: all, at the run's end). */
  take(t: number): Record<string, ModelSecond> {
    const out = Object.create(null) as Record<string, ModelSecond>;
    for (const [second, models] of this.seconds) {
      if (second > t) continue;
      this.seconds.delete(second);
      for (const [name, tally] of Object.entries(models)) {
        const into = (out[name] ??= { outcomes: Object.create(null) as Record<string, number>, credit_units: 0 });
        for (const [outcome, n] of Object.entries(tally.outcomes)) into.outcomes[outcome] = (into.outcomes[outcome] ?? 0) + n;
        into.credit_units += tally.credit_units;
      }
    }
    return out;
  }
}
