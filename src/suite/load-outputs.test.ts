// A suite's `load.outputs`: `--output NAME=URL` entries, read alone or beside a load shape, errors at their line.
import { describe, expect, it } from 'vitest';
import { parseSuite } from './load.js';
import { suiteIssuesOf } from './test-helpers.js';
import { withSuiteLoad } from '../config/from-suite.js';
import { testRunConfig } from '../config/test-support/run-config.js';

const CASES = 'cases:\n  - id: a\n    prompt: Hi\n';
const yaml = (load: string) => parseSuite(Buffer.from(`${CASES}load:\n${load}`), 'dir/inline.yaml');

const issuesOf = (load: string): string[] => suiteIssuesOf(() => yaml(load));

const W = 'prometheus-rw=http://127.0.0.1:9090/api/v1/write';

describe('a suite load.outputs list', () => {
  it('reads outputs beside a shape, and alone (the load stays the flags\')', () => {
    expect(yaml(`  rate: 2\n  duration: 5s\n  outputs: [${W}]\n`).load?.outputs).toEqual([{ kind: 'prometheus-rw', url: 'http://127.0.0.1:9090/api/v1/write' }]);
    const alone = yaml(`  outputs:\n    - ${W}\n`).load;
    expect(alone).toMatchObject({ outputs: [{ kind: 'prometheus-rw' }] });
    expect(alone?.rate).toBeUndefined();
  });

  it.each<[string, string, RegExp]>([
    ['an unknown output', '  outputs: [influx=http://x]\n', /^dir\/inline\.yaml:5:\d+ load\.outputs\[0\]: unknown output "influx"/],
    ['a URL that is not http', '  outputs:\n    - prometheus-rw=localhost:9090\n', /:6:\d+ load\.outputs\[0\]: prometheus-rw: expected an http\(s\) URL/],
    ['not a list', `  outputs: ${W}\n`, /load\.outputs: expected a list of NAME=URL/],
  ])('names the field and line of %s', (_name, load, expected) => {
    expect(issuesOf(load).join('\n')).toMatch(expected);
  });

  it('gives way to --output', () => {
    const load = yaml(`  outputs: [${W}]\n`).load;
    const base = testRunConfig();
    expect(withSuiteLoad(base, load).outputs.live).toEqual(load?.outputs);
    const flag = [{ kind: 'prometheus-rw' as const, url: 'http://10.0.0.1:9090/api/v1/write' }];
    expect(withSuiteLoad({ ...base, outputs: { ...base.outputs, live: flag } }, load).outputs.live).toEqual(flag);
  });
});
