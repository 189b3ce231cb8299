import { describe, expect, it } from 'vitest';
import { BudgetGuard, PRICED_BEFORE_CONCURRENCY } from './budget.js';
import { CreditLedger } from './ledger.js';

function ticketOf(granted: { ticket: number } | { stop: string }): number {
  if (!('ticket' in granted)) throw new Error(granted.stop);
  return granted.ticket;
}

describe('BudgetGuard: the learning phase and the balance as reported', () => {
  it('runs a model alone until enough of its answers are priced (0.01 first, then 1.0: never 8 at once)', async () => {
    const ledger = new CreditLedger();
    const guard = new BudgetGuard({ maxCredits: 2 }, ledger);
    const first = ticketOf(await guard.acquire('m'));
    expect(guard.decide('m').kind).toBe('wait');
    ledger.record('m', { creditsUsed: 0.01, creditsRemaining: null });
    guard.release(first);
    const second = ticketOf(await guard.acquire('m'));
    expect(guard.decide('m').kind).toBe('wait'); // one priced answer is not enough to run two at once
    ledger.record('m', { creditsUsed: 1, creditsRemaining: null });
    guard.release(second);
    expect(guard.decide('m')).toMatchObject({ kind: 'stop', reason: expect.stringMatching(/--max-credits 2/) });
    expect(ledger.spent).toBeLessThanOrEqual(2 + 1);
  });

  it('admits requests together once a model is priced, each reserving twice its largest cost', async () => {
    const ledger = new CreditLedger();
    for (let i = 0; i < PRICED_BEFORE_CONCURRENCY; i++) ledger.record('m', { creditsUsed: 0.1, creditsRemaining: null });
    const guard = new BudgetGuard({ maxCredits: 1 }, ledger);
    ticketOf(await guard.acquire('m')); // 0.5 committed + 0.2
    ticketOf(await guard.acquire('m')); // + 0.2 = 0.9
    expect(guard.decide('m').kind).toBe('wait'); // + 0.2 would pass 1
  });

  it('reads credits_remaining as the service reports it, even when it falls faster than credits_used says', () => {
    const ledger = new CreditLedger();
    ledger.record('m', { creditsUsed: 0.01, creditsRemaining: 1000 });
    ledger.record('m', { creditsUsed: 0.01, creditsRemaining: 499.95 });
    expect(ledger.estimatedRemaining).toBe(499.95);
    expect(new BudgetGuard({ minRemaining: 500 }, ledger).decide('m')).toMatchObject({ kind: 'stop', reason: expect.stringMatching(/--min-remaining 500/) });
  });

  it('believes a reported balance when no answer reported a valid credits_used', () => {
    const ledger = new CreditLedger();
    ledger.record('m', { creditsUsed: null, creditsRemaining: 99.91 });
    expect(ledger.estimatedRemaining).toBe(99.91);
    expect(new BudgetGuard({ minRemaining: 500 }, ledger).decide('m').kind).toBe('stop');
  });
});

describe('BudgetGuard: --min-remaining with no balance to guard with (issue 34 item 13)', () => {
  for (const seen of ['null', '1e308', 'missing']) {
    it(`stops once a JSON answer reported credits_remaining ${seen} before any balance was known`, async () => {
      const ledger = new CreditLedger();
      const guard = new BudgetGuard({ minRemaining: 990 }, ledger);
      ticketOf(await guard.acquire('m')); // the first request starts: the balance is not known yet
      ledger.record('m', { creditsUsed: 0.01, creditsRemaining: null, balanceMissing: seen });
      expect(guard.decide('m')).toMatchObject({ kind: 'stop', reason: expect.stringContaining(`--min-remaining 990 cannot guard: the service reported credits_remaining ${seen}`) });
    });
  }

  it('keeps guarding with the balance known before an answer that reported none', () => {
    const ledger = new CreditLedger();
    ledger.record('m', { creditsUsed: 0.01, creditsRemaining: 1000 });
    ledger.record('m', { creditsUsed: 0.01, creditsRemaining: null, balanceMissing: 'null' });
    expect(new BudgetGuard({ minRemaining: 990 }, ledger).decide('m').kind).toBe('go');
  });

  it('a --max-credits run alone is not stopped by a missing balance', () => {
    const ledger = new CreditLedger();
    ledger.record('m', { creditsUsed: 0.01, creditsRemaining: null, balanceMissing: 'missing' });
    expect(new BudgetGuard({ maxCredits: 10 }, ledger).decide('m').kind).toBe('go');
  });
});
