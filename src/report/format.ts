// Number and time formatting shared by the HTML and console reports (one place decides how 1234.5 ms reads).
/** `1.23`, `12.3`, `123`, `1,234`: about three significant digits, no false precision. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '–';
  if (ms < 10) return ms.toFixed(2);
  if (ms < 100) return ms.toFixed(1);
  return Math.round(ms).toLocaleString('en-US');
}

export function formatCount(n: number | null | undefined): string {
  return n === null || n === undefined ? '–' : n.toLocaleString('en-US');
}

export function formatRate(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return '–';
  const pct = rate * 100;
  return `${pct === 100 || pct === 0 ? pct.toFixed(0) : pct.toFixed(1)}%`;
}

/** Credits are small decimals (0.0042): up to 4 significant digits. */
export function formatCredits(credits: number | null | undefined): string {
  if (credits === null || credits === undefined) return '–';
  if (credits === 0) return '0';
  const abs = Math.abs(credits);
  if (abs >= 1000) return Math.round(credits).toLocaleString('en-US');
  return Number(credits.toPrecision(4)).toString();
}

export function formatDurationMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s - m * 60)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** ISO timestamp → `2025-11-22 01:43:05 UTC` (UTC, so the report reads the same everywhere). */
export function formatTimestamp(iso: string | null | undefined): string {
  if (!iso) return '–';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The service's default model has no name in the results: show that plainly. */
export function modelLabel(model: string): string {
  return model === '' ? '(default model)' : model;
}
