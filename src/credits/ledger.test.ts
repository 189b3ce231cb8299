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
  });

  it('counts answers whose credits are unknown', () => {
    const ledger = new CreditLedger();
    ledger.record('m', { creditsUsed: null, creditsRemaining: null });
    expect(ledger.reconcile().unknown).toBe(1);
    expect(ledger.worstCase('m')).toBeNull();
  });

  it('shows drift when someone else spent from the account meanwhile', () => {
    const ledger = new CreditLedger();
    ledger.record('m', { creditsUsed: 1, creditsRemaining: 99 });
    ledger.record('m', { creditsUsed: 1, creditsRemaining: 95 });
    expect(ledger.reconcile().drift).toBe(3);
  });
});

describe('BudgetGuard', () => {
  it('lets one probe run, then refuses a start whose worst case could pass the limit', async () => {
    const ledger = new CreditLedger();
    const guard = new BudgetGuard({ maxCredits: 1 }, ledger);
    const probe = await guard.acquire('m');
    expect(probe).not.toBeNull();
    let second: number | null | undefined;
    const pending = guard.acquire('m').then((t) => (second = t));
    await Promise.resolve();
    expect(second).toBeUndefined(); // waits for the probe to teach the worst case
    ledger.record('m', { creditsUsed: 0.4, creditsRemaining: 10 });
    guard.release(probe!);
    await pending;
    expect(second).not.toBeNull(); // 0.4 spent + 0.6 worst case = 1.0, not past the limit
    expect(await guard.acquire('m')).toBeNull(); // 0.4 + 0.6 in flight + 0.6 > 1
  });

  it('never limits when no budget is set', async () => {
    const guard = new BudgetGuard({}, new CreditLedger());
    const tickets = await Promise.all([1, 2, 3].map(() => guard.acquire('m')));
    expect(tickets.every((t) => t !== null)).toBe(true);
  });

  it('guards the remaining balance with --min-remaining', async () => {
    const ledger = new CreditLedger();
    ledger.record('m', { creditsUsed: 1, creditsRemaining: 10.5 });
    const guard = new BudgetGuard({ minRemaining: 9 }, ledger);
    expect(await guard.acquire('m')).not.toBeNull(); // 10.5 - 1.5 = 9
    expect(await guard.acquire('m')).toBeNull();
  });
});
