// The layering rules of eslint.config.js (issue 24): each fixed leak, written again, is an error.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? '').filter((id) => id.startsWith('no-restricted'));
}

describe('layering lint rules', () => {
  it.each([
    ['src/checks/leak.ts', "import { DEFAULT_GATES } from '../metrics/gates.js';\nexport const g = DEFAULT_GATES;\n"],
    ['src/metrics/leak.ts', "import { runChecks } from '../checks/registry.js';\nexport const r = runChecks;\n"],
    ['src/domain/leak.ts', "import type { CreditsSummary } from '../credits/run-credits.js';\nexport type C = CreditsSummary;\n"],
    ['src/merge/leak.ts', "import { finishReports } from '../session/finish.js';\nexport const f = finishReports;\n"],
    ['src/compare/leak.ts', "import { recordedSelection } from '../session/only-failed.js';\nexport const r = recordedSelection;\n"],
    ['src/compare/leak-two.ts', "import type { SessionHooks } from '../session/run-session.js';\nexport type H = SessionHooks;\n"],
    ['src/doctor/leak.ts', "import { createReferenceApp } from '../server/app.js';\nexport const a = createReferenceApp;\n"],
    ['src/report/console-leak.ts', "import { renderLoadSection } from './html/load-section.js';\nexport const l = renderLoadSection;\n"],
    ['src/session/leak.ts', "import { existsSync } from 'node:fs';\nimport { join } from 'node:path';\nimport { RUN_FILES } from '../store/run-dir.js';\nexport const isRun = (d: string) => existsSync(join(d, RUN_FILES.run));\n"],
  ])('%s is refused', async (file, code) => {
    expect(await ruleIds(file, code)).not.toEqual([]);
  });

  it('allows what each folder may import', async () => {
    expect(await ruleIds('src/domain/ok.ts', "import type { StreamDialect } from '../protocol/index.js';\nexport type D = StreamDialect;\n")).toEqual([]);
    expect(await ruleIds('src/compare/ok.ts', "import { recordedSelection } from '../store/run-selection.js';\nexport const r = recordedSelection;\n")).toEqual([]);
    expect(await ruleIds('src/store/ok.ts', "import { existsSync } from 'node:fs';\nimport { join } from 'node:path';\nimport { RUN_FILES } from './run-dir.js';\nexport const isRun = (d: string) => existsSync(join(d, RUN_FILES.run));\n")).toEqual([]);
  });
});
