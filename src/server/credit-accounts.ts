// Credit balances per account, in integer 1e-5 units so credits_remaining falls by exactly credits_used.
import type { WorkspaceAccount } from './workspace.js';

export type DebitResult = { ok: true; remainingUnits: number } | { ok: false; remainingUnits: number };

export class CreditAccounts {
  private readonly balances = new Map<string, number>();
  private readonly byKey = new Map<string, WorkspaceAccount>();

  constructor(accounts: readonly WorkspaceAccount[]) {
    for (const account of accounts) {
      this.balances.set(account.id, account.creditsUnits);
      this.byKey.set(account.key, account);
    }
  }

  /** The account an API key belongs to, if any. */
  accountForKey(key: string | undefined): WorkspaceAccount | undefined {
    return key === undefined ? undefined : this.byKey.get(key);
  }

  balanceUnits(accountId: string): number {
    return this.balances.get(accountId) ?? 0;
  }

  /** Takes `units` from the account, or nothing at all when the balance cannot cover them. */
  debit(accountId: string, units: number): DebitResult {
    const balance = this.balanceUnits(accountId);
    if (!Number.isSafeInteger(units) || units < 0) throw new RangeError(`credit units must be a non-negative integer, got ${units}`);
    if (balance < units) return { ok: false, remainingUnits: balance };
    const remainingUnits = balance - units;
    this.balances.set(accountId, remainingUnits);
    return { ok: true, remainingUnits };
  }
}
