// Fault injection: seeded random faults by rate, or one fault forced per request by a test header.
import type { Random } from './random.js';

export const FAULT_HEADER = 'x-kbbench-fault';
export const FAULT_KINDS = ['500', '429', '502-html', 'stall', 'cut', '402'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultOptions {
  faultRate: number;
  rateLimitRate: number;
  retryAfterS: number;
  stallMs: number;
  stallRate: number;
  cutRate: number;
  html502Rate: number;
}

/** What goes wrong with one request. Gateway faults happen before the key is even looked at. */
export interface FaultPlan {
  gateway?: '429' | '502-html';
  server?: '500' | '402';
  stallMs: number;
  cut: boolean;
}

export const NO_FAULTS: FaultPlan = { stallMs: 0, cut: false };

/** Parses the header: a kind, or `stall=<ms>` for a stall of a chosen length. Undefined for an unknown value. */
export function parseFaultHeader(value: string, options: FaultOptions): FaultPlan | undefined {
  const [kind, argument] = value.trim().toLowerCase().split('=');
  switch (kind) {
    case '500':
    case '402':
      return { server: kind, stallMs: 0, cut: false };
    case '429':
    case '502-html':
      return { gateway: kind, stallMs: 0, cut: false };
    case 'cut':
      return { stallMs: 0, cut: true };
    case 'stall': {
      const stallMs = argument === undefined ? options.stallMs : Number(argument);
      return Number.isFinite(stallMs) && stallMs >= 0 ? { stallMs, cut: false } : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The chance to draw against once earlier, exclusive faults have taken `taken` of all requests, so
 * that `rate` is this fault's share of all requests (a 429 rate of 0.2 beside a 502 rate of 0.05
 * would otherwise give 19 % of 429s, and a 500 rate below both fewer still).
 */
function conditional(rate: number, taken: number): number {
  return taken >= 1 ? 0 : Math.min(1, rate / (1 - taken));
}

/** Random faults for one answer request. Always draws five numbers, so rates never shift each other's sequence. */
export function drawFaults(options: FaultOptions, random: Random): FaultPlan {
  const [html502, rateLimit, fault, stall, cut] = [random(), random(), random(), random(), random()] as const;
  const plan: FaultPlan = { stallMs: 0, cut: false };
  // A request meets one of 502, 429 or 500 at most: each is its rate's share of all requests.
  if (html502 < options.html502Rate) plan.gateway = '502-html';
  else if (rateLimit < conditional(options.rateLimitRate, options.html502Rate)) plan.gateway = '429';
  else if (fault < conditional(options.faultRate, options.html502Rate + options.rateLimitRate)) plan.server = '500';
  if (stall < options.stallRate) plan.stallMs = options.stallMs;
  if (cut < options.cutRate) plan.cut = true;
  return plan;
}

export const HTML_502_PAGE = `<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx</center>
</body>
</html>
`;
