import { describe, expect, it } from 'vitest';
import { BudgetGuard } from './budget.js';
import { CreditLedger } from './ledger.js';

describe('CreditLedger', () => {
  it('adds fractional credits exactly and reconciles remaining (public-facts example)', () => {
    const ledger = new CreditLedger();
    ledger.record('m', { creditsUsed: 0.04975, creditsRemaining: 1853.74585 });
    ledger.record('m', { creditsUsed: 0.02885, creditsRemaining: 1853.717 });
    expect(ledger.spent).toBe(0.0786);
    expect(ledger.reconcile()).toEqual({ spent: 0.0786, unknown: 0, start_remaining: 1853.7956, last_remaining: 1853.717, drift: 0 });
    expect(ledger.estimatedRemaining).toBe(1853.717);
  });

  it('counts a charged answer of unknown cost at its model worst case, and knows when nothing bounds it', () => {
    const ledger = new CreditLedger();
    ledger.record('m', { creditsUsed: null, creditsRemaining: null }); // a refused request: not charged
    expect(ledger.unbounded).toBe(false);
    ledger.record('m', { creditsUsed: 0.2, creditsRemaining: null });
    ledger.record('m', { creditsUsed: null, creditsRemaining: null, paidUnknown: true });
    expect(ledger.committed).toBe(0.4);
    expect(ledger.reconcile().unknown).toBe(1);
    // A model with no answer yet is bounded by the largest request of any model…
    ledger.record('other', { creditsUsed: null, creditsRemaining: null, paidUnknown: true });
    expect(ledger.unbounded).toBe(false);
    expect(ledger.committed).toBe(0.6);
    // …and only a charge of unknown cost before any cost at all leaves nothing to bound it.
    const fresh = new CreditLedger();
    fresh.record('m', { creditsUsed: null, creditsRemaining: null, paidUnknown: true });
    expect(fresh.unbounded).toBe(true);
  });

  it('shows drift when someone else spent from the account meanwhile', () => {
    const ledger = new CreditLedger();
    ledger.record('m', { creditsUsed: 1, creditsRemaining: 99 });
    ledger.record('m', { creditsUsed: 1, creditsRemaining: 95 });
    expect(ledger.reconcile().drift).toBe(3);
  });

  it('adds what judges cost to the worst case of the model they graded', () => {
    const ledger = new CreditLedger();
    ledger.record('m', { creditsUsed: 0.1, creditsRemaining: null });
    ledger.recordExtra('m', 0.3);
    expect(ledger.spent).toBe(0.4);
    expect(ledger.worstCase('m')).toBe(0.4);
    expect(ledger.worstCase('n')).toBeNull();
  });
});

const ticketOf = (granted: { ticket: number } | { stop: string }): number => {
  if (!('ticket' in granted)) throw new Error(granted.stop);
  return granted.ticket;
};

describe('BudgetGuard', () => {
  it('lets a probe run alone, then refuses a start whose worst case could pass the limit', async () => {
    const ledger = new CreditLedger();
    const guard = new BudgetGuard({ maxCredits: 1 }, ledger);
    const probe = ticketOf(await guard.acquire('m'));
    expect(guard.decide('m').kind).toBe('wait'); // the probe must teach the worst case first
    expect(guard.decide('n').kind).toBe('wait'); // unknown costs never add up: probes run one at a time
    ledger.record('m', { creditsUsed: 0.25, creditsRemaining: 10 });
    guard.release(probe);
    ticketOf(await guard.acquire('m')); // 0.25 spent + 0.5 worst = 0.75
    expect(guard.decide('m').kind).toBe('wait'); // 0.25 + 0.5 in flight + 0.5 > 1: wait while in flight
  });

  it('reserves the largest request seen for a model not seen yet', () => {
    const ledger = new CreditLedger();
    ledger.record('m', { creditsUsed: 0.3, creditsRemaining: null });
    expect(new BudgetGuard({ maxCredits: 1 }, ledger).decide('n')).toEqual({ kind: 'go', worst: 0.6 });
    // 0.3 spent + 0.6 reserved for the unseen model > 0.85: not even its probe may start.
    expect(new BudgetGuard({ maxCredits: 0.85 }, ledger).decide('n').kind).toBe('stop');
  });

  it('stops only when nothing is in flight and the next request still does not fit', async () => {
    const ledger = new CreditLedger();
    ledger.record('m', { creditsUsed: 0.4, creditsRemaining: null });
    const guard = new BudgetGuard({ maxCredits: 1 }, ledger);
    expect(guard.decide('m')).toMatchObject({ kind: 'stop', reason: expect.stringMatching(/--max-credits 1/) });
  });

  it('sends nothing when no budget is left, not even a probe', async () => {
    const guard = new BudgetGuard({ maxCredits: 0 }, new CreditLedger());
    expect(guard.decide('m').kind).toBe('stop');
  });

  it('never limits when no budget is set', async () => {
    const guard = new BudgetGuard({}, new CreditLedger());
    const tickets = await Promise.all([1, 2, 3].map(() => guard.acquire('m')));
    expect(tickets.every((t) => 'ticket' in t)).toBe(true);
  });

  it('guards the remaining balance with --min-remaining', async () => {
    const ledger = new CreditLedger();
    ledger.record('m', { creditsUsed: 1, creditsRemaining: 12 });
    const guard = new BudgetGuard({ minRemaining: 9 }, ledger);
    ticketOf(await guard.acquire('m')); // 12 - 2 = 10 ≥ 9
    expect(guard.decide('m').kind).toBe('wait');
  });

  it('stops when answers of unknown cost leave nothing to bound the budget by', () => {
    const ledger = new CreditLedger();
    ledger.record('m', { creditsUsed: null, creditsRemaining: null, paidUnknown: true });
    expect(new BudgetGuard({ maxCredits: 5 }, ledger).decide('m')).toMatchObject({ kind: 'stop', reason: expect.stringMatching(/usage/) });
  });

  it('lets a waiting probe go next instead of starving behind known models', async () => {
    const ledger = new CreditLedger();
    ledger.record('a', { creditsUsed: 0.01, creditsRemaining: null });
    const guard = new BudgetGuard({ maxCredits: 100 }, ledger);
    const first = ticketOf(await guard.acquire('a'));
    expect(guard.decide('b').kind).toBe('wait'); // the probe of b waits for the run to drain…
    expect(guard.decide('a').kind).toBe('wait'); // …and a takes no new slot meanwhile
    guard.release(first);
    expect(guard.decide('b').kind).toBe('go');
  });
});
