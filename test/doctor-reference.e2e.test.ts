// The reference service conforms to itself: kbbench doctor against `kbbench serve`, in every stream
// dialect (doctor tries every key form each time), reports no difference. A change to src/server/
// that leaves the documented contract fails here, as does a probe that expects what interface.md does not say.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STREAM_DIALECTS } from '../src/protocol/index.js';
import { runCliInProcess, startServeInProcess, tempDir } from './helpers.js';

interface Report {
  verdict: string;
  dialect: string;
  embedded: boolean;
  rows: { probe: string; status: string; observed: string }[];
}

describe('doctor against the reference service', () => {
  it.each(STREAM_DIALECTS)('kbbench serve --dialect %s: no difference', async (dialect) => {
    const serve = await startServeInProcess(['--dialect', dialect, '--latency-scale', '0']);
    try {
      const { code, stdout, stderr } = await runCliInProcess(['doctor', '--base-url', serve.url, '--json'], { env: { KBBENCH_API_KEY: serve.key } });
      expect(code, stderr).toBe(0);
      const report = JSON.parse(stdout) as Report;
      expect(report.dialect).toBe(dialect);
      expect(report.rows.filter((r) => r.status === 'differs')).toEqual([]);
      const untested = report.rows.filter((r) => r.status === 'not_tested').map((r) => r.probe);
      expect(untested).toEqual(dialect === 'text' ? ['stream.finish', 'stream.usage', 'credits.per_model'] : []);
    } finally {
      await serve.stop();
    }
  });

  it('kbbench doctor with no --base-url checks the embedded service and writes doctor.json', async () => {
    const dir = tempDir('kbbench-doctor-ref-');
    const { code, stdout, stderr } = await runCliInProcess(['doctor'], { cwd: dir });
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^doctor: conforms: 26 conform, 0 differ, 0 not tested; stream dialect ui-sse/m);
    expect(stdout).toMatch(/--profile .*doctor\.json/);
    const file = join(dir, 'doctor.json');
    expect(existsSync(file)).toBe(true);
    const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
    expect(report).toMatchObject({ verdict: 'conforms', dialect: 'ui-sse', embedded: true });
  }, 90_000);
});
