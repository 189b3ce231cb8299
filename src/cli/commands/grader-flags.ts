// The --grader-* flags, alone in their module: validate and grader-check take them without loading
// run-flags.ts's imports (the runner, outputs, compare: ~25 MB of modules a validate never runs).
import type { RunConfig } from '../../config/run-config.js';
import { readGraderKey } from '../secrets.js';

export function graderFlags(group: string) {
  return {
    'grader-chat': { type: 'string', describe: 'a chat assistant of the service grades model-graded checks (its id)', group },
    'grader-url': { type: 'string', describe: 'an OpenAI-compatible endpoint grades them (base URL, e.g. http://127.0.0.1:8000/v1; with --grader-model)', group },
    'grader-model': { type: 'string', describe: 'the grader\'s model', group },
    'grader-key-file': { type: 'string', describe: 'file holding the grader endpoint\'s key (else env KBBENCH_GRADER_API_KEY)', group },
  } as const;
}

const opt = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

/** The --grader-* flags as session options (the key read from its file or the environment). */
export function graderOptions(a: Record<string, unknown>, env: NodeJS.ProcessEnv): Pick<RunConfig, 'graderChat' | 'graderModel' | 'graderUrl' | 'graderApiKey'> {
  const key = readGraderKey(env, a.graderKeyFile as string | undefined);
  return {
    ...opt('graderChat', a.graderChat as string | undefined),
    ...opt('graderModel', a.graderModel as string | undefined),
    ...opt('graderUrl', a.graderUrl as string | undefined),
    ...opt('graderApiKey', key),
  };
}
