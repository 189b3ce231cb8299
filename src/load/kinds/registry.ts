// Every load kind, by name: the one registry (k6's executor registry). Adding a kind is a folder
// beside this file and one line here; its spec type joins LoadSpec through the LoadSpecs interface
// (domain/load.ts), and this does not compile until every name there has its module here.
import type { LoadKindName, LoadSpecs } from '../../domain/load.js';
import type { LoadKind } from '../kind.js';
import { arrivalsKind } from './arrivals/index.js';
import { closedKind } from './closed/index.js';
import { rampingWorkersKind } from './ramping-workers/index.js';
import { sweepKind } from './sweep/index.js';
import { trafficKind } from './traffic/index.js';

/** In precedence order: when the fields of two kinds are given, the first one here names the clash. */
export const LOAD_KINDS: { [K in LoadKindName]: LoadKind<LoadSpecs[K]> } = {
  traffic: trafficKind,
  sweep: sweepKind,
  'ramping-workers': rampingWorkersKind,
  arrivals: arrivalsKind,
  closed: closedKind,
};

/** The module of a spec's kind, typed for any spec (each member takes the spec of its own kind). */
export function kindOf(kind: LoadKindName): LoadKind {
  return LOAD_KINDS[kind] as unknown as LoadKind;
}
