// Where the suites shipped with kbbench are (the checkout's or the installed package's suites/), so
// `kbbench run demo` works from any folder and a run can tell the demo from a team's own suite.
import { fileURLToPath } from 'node:url';
import { relative, resolve, isAbsolute } from 'node:path';

// Two folders up from this module: src/suite/, dist/suite/ and the bundle's dist/cli/ all sit at that depth.
export const SHIPPED_SUITES_DIR = fileURLToPath(new URL('../../suites/', import.meta.url));
export const DEMO_SUITE_PATH = resolve(SHIPPED_SUITES_DIR, 'demo.yaml');
export const DEMO_WORKSPACE_PATH = resolve(SHIPPED_SUITES_DIR, 'demo', 'workspace.yaml');

/** The shipped suites a bare word names: `kbbench run demo`, `kbbench run load-demo`. */
export const SHIPPED_SUITE_NAMES: Record<string, string> = {
  demo: DEMO_SUITE_PATH,
  'load-demo': resolve(SHIPPED_SUITES_DIR, 'load-demo.yaml'),
};

/** True when the file is one kbbench ships (inside its suites/ folder): such a suite is the demo. */
export function isShippedSuite(path: string): boolean {
  const inside = relative(SHIPPED_SUITES_DIR, resolve(path));
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside);
}
