// Credits in money (× a price per credit) and how long an account's credits last at a forecast's pace.
import type { CreditInterval, ItemForecast } from './item-forecast.js';

export interface MoneyInterval {
  amount: number;
  low: number;
  high: number;
}

export interface Money {
  credit_price: number;
  /** As given with --currency; null when none was named. */
  currency: string | null;
  total: MoneyInterval;
  models: Record<string, MoneyInterval>;
}

/** Money is shown to a millionth of the currency: a single answer can cost a fraction of a cent. */
const roundMoney = (value: number): number => Math.round(value * 1e6) / 1e6;

export function priced(interval: CreditInterval, price: number): MoneyInterval {
  return { amount: roundMoney(interval.credits * price), low: roundMoney(interval.low * price), high: roundMoney(interval.high * price) };
}

export function moneyOf(forecast: ItemForecast, price: number, currency: string | null): Money {
  const models: Record<string, MoneyInterval> = {};
  for (const [model, m] of Object.entries(forecast.models)) models[model] = priced(m, price);
  return { credit_price: price, currency, total: priced(forecast.total, price), models };
}

export interface RunwayEntry {
  /** Periods (or runs) the balance lasts at the forecast's point value. */
  lasts: number | null;
  /** …at the interval's high end: the pessimistic figure. */
  lasts_at_high: number | null;
}

export interface Runway {
  balance: number;
  /** `observed`: the lowest credits_remaining the sample or runs reported; `--balance`: given. */
  balance_source: 'observed' | '--balance';
  /** What `lasts` counts: the --per period of a volume (e.g. `month`), else `run` (runs of the plan). */
  unit: string;
  /** Each model taking all the traffic (per model), and the suite's own split (total). */
  total: RunwayEntry;
  models: Record<string, RunwayEntry>;
  /** The balance in money, when a price was given. */
  balance_money: number | null;
}

const lasts = (balance: number, spend: number): number | null => (spend > 0 ? Math.round((balance / spend) * 100) / 100 : null);
const entry = (balance: number, i: CreditInterval): RunwayEntry => ({ lasts: lasts(balance, i.credits), lasts_at_high: lasts(balance, i.high) });

export function runwayOf(forecast: ItemForecast, balance: { credits: number; source: Runway['balance_source'] }, per: string | null, price?: number): Runway {
  const models: Record<string, RunwayEntry> = {};
  for (const [model, m] of Object.entries(forecast.models)) models[model] = entry(balance.credits, m);
  return {
    balance: balance.credits, balance_source: balance.source, unit: per ?? 'run',
    total: entry(balance.credits, forecast.total), models,
    balance_money: price !== undefined ? roundMoney(balance.credits * price) : null,
  };
}
