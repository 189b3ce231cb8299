// The --grader-* flags, alone in their module: validate and grader-check take them without loading
// run-flags.ts's imports (the runner, outputs, compare: ~25 MB of modules a validate never runs).
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { RunConfig } from '../../config/run-config.js';
import { InputError } from '../../domain/errors.js';
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
export function graderOptions(a: Record<string, unknown>, env: NodeJS.ProcessEnv): { graderChat?: string; graderModel?: string; graderUrl?: string; graderApiKey?: string } {
  const key = readGraderKey(env, a.graderKeyFile as string | undefined);
  return {
    ...opt('graderChat', a.graderChat as string | undefined),
    ...opt('graderModel', a.graderModel as string | undefined),
    ...opt('graderUrl', a.graderUrl as string | undefined),
    ...opt('graderApiKey', key),
  };
}

/** The grader-verdict cache's flags: on every command that grades (run, estimate's sample; regrade). */
export function graderCacheFlags(group: string) {
  return {
    'grader-cache': {
      type: 'string', group,
      describe: 'grader-verdict cache (default $XDG_CACHE_HOME/kbbench); --no-grader-cache: off',
    },
  } as const;
}

/** The user's cache directory, as the XDG base-directory spec says (a relative XDG_CACHE_HOME is ignored). */
export function userCacheDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg !== undefined && isAbsolute(xdg) ? xdg : join(env.HOME ?? homedir(), '.cache');
  return join(base, 'kbbench');
}

/** --grader-cache DIR, its default, or none with --no-grader-cache. */
export function graderCacheOptions(a: Record<string, unknown>, env: NodeJS.ProcessEnv, cwd: string): { graderCacheDir?: string } {
  const asked = a.graderCache as string | false | (string | false)[] | undefined;
  if (Array.isArray(asked)) {
    throw new InputError(asked.includes(false) ? 'give --grader-cache DIR or --no-grader-cache, not both' : '--grader-cache is given more than once', { field: '--grader-cache' });
  }
  if (asked === false) return {};
  if (asked !== undefined && asked.trim() === '') throw new InputError('expected a directory, got an empty value (leave the flag out for the default cache)', { field: '--grader-cache' });
  return { graderCacheDir: asked === undefined ? userCacheDir(env) : resolve(cwd, asked) };
}

/** The --grader-* flags and the cache as the run config's grader section (its judge sample and embeddings are run-flags'). */
export function graderSection(a: Record<string, unknown>, env: NodeJS.ProcessEnv, cwd: string): RunConfig['grader'] {
  const { graderChat, graderModel, graderUrl, graderApiKey } = graderOptions(a, env);
  const { graderCacheDir } = graderCacheOptions(a, env, cwd);
  return { ...opt('chat', graderChat), ...opt('model', graderModel), ...opt('url', graderUrl), ...opt('apiKey', graderApiKey), ...opt('cacheDir', graderCacheDir) };
}
