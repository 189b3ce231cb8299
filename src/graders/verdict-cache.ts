// The grader-verdict cache on disk: one whole verdict (votes and re-asks included) per file, named by
// the hash of what decides it (grader, check type, grading prompt, votes), so an unchanged answer under
// an unchanged check and grader is judged without a call. Shared by processes: atomic writes, and an
// entry that does not read back whole is a miss, never an error.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JudgeRequest, VerdictMemo } from '../checks/types.js';
import type { CheckResult } from '../domain/sample.js';
import type { Grader } from './types.js';

/** The cache's size cap: past it, the least recently used entries (oldest mtime; a hit touches it) go first. */
export const DEFAULT_VERDICT_CACHE_BYTES = 64 * 1024 * 1024;
/** An eviction brings the cache down to this share of the cap, so it does not sweep at every write. */
const EVICT_TO_SHARE = 0.8;
/** Writes between two sweeps of one process (and one at its first write). */
const SWEEP_EVERY_WRITES = 256;
/** A temp file this old was left by a killed writer. */
const STALE_TEMP_MS = 10 * 60_000;
/** Bumped when the entry's shape or the key's material changes: older entries become misses. */
const FORMAT = 1;

export interface VerdictCacheOptions {
  maxBytes?: number;
}

export interface VerdictCache {
  readonly dir: string;
  get(material: string): Promise<CheckResult | undefined>;
  put(material: string, result: CheckResult): Promise<void>;
  /** Evicts the least recently used entries past the cap; returns the bytes kept. */
  sweep(): Promise<number>;
}

interface Entry {
  format: number;
  key: string;
  verdict: CheckResult;
}

const hashOf = (material: string): string => createHash('sha256').update(`${FORMAT}\u0000${material}`).digest('hex');

function isVerdict(value: unknown): value is CheckResult {
  const v = value as Partial<CheckResult> | null;
  return typeof v === 'object' && v !== null && typeof v.type === 'string' && typeof v.pass === 'boolean' && typeof v.detail === 'string';
}

/** What an entry holds: the verdict and its evidence, never what it cost (spent once, by the run that asked). */
function verdictOf(result: CheckResult): CheckResult {
  const { credits_used: _credits, grader_tokens: _tokens, cached: _cached, ...verdict } = result;
  return verdict;
}

async function entryFiles(root: string): Promise<{ path: string; bytes: number; mtimeMs: number }[]> {
  const files: { path: string; bytes: number; mtimeMs: number }[] = [];
  const shards = await readdir(root).catch(() => [] as string[]);
  for (const shard of shards) {
    for (const name of await readdir(join(root, shard)).catch(() => [] as string[])) {
      const path = join(root, shard, name);
      const info = await stat(path).catch(() => undefined);
      if (info?.isFile()) files.push({ path, bytes: info.size, mtimeMs: info.mtimeMs });
    }
  }
  return files;
}

export function openVerdictCache(dir: string, options: VerdictCacheOptions = {}): VerdictCache {
  const maxBytes = options.maxBytes ?? DEFAULT_VERDICT_CACHE_BYTES;
  const root = join(dir, 'verdicts');
  const pathOf = (key: string): string => join(root, key.slice(0, 2), `${key}.json`);
  let writes = 0;
  const cache: VerdictCache = {
    dir,
    get: async (material) => {
      const key = hashOf(material);
      const path = pathOf(key);
      try {
        const entry = JSON.parse(await readFile(path, 'utf8')) as Partial<Entry>;
        if (entry.format !== FORMAT || entry.key !== key || !isVerdict(entry.verdict)) return undefined;
        const now = new Date();
        await utimes(path, now, now).catch(() => undefined);
        return entry.verdict;
      } catch {
        return undefined;
      }
    },
    put: async (material, result) => {
      const key = hashOf(material);
      const path = pathOf(key);
      const temp = `${path}.tmp-${randomBytes(4).toString('hex')}`;
      try {
        await mkdir(join(root, key.slice(0, 2)), { recursive: true });
        const entry: Entry = { format: FORMAT, key, verdict: verdictOf(result) };
        await writeFile(temp, JSON.stringify(entry), 'utf8');
        await rename(temp, path);
      } catch {
        // A cache that cannot be written (a full disk, no permission) costs calls, never the run.
        await rm(temp, { force: true }).catch(() => undefined);
        return;
      }
      if (writes++ % SWEEP_EVERY_WRITES === 0) await cache.sweep().catch(() => undefined);
    },
    sweep: async () => {
      const files = await entryFiles(root);
      const now = new Date().getTime();
      const stale = files.filter((f) => f.path.includes('.tmp-') && now - f.mtimeMs > STALE_TEMP_MS);
      for (const f of stale) await rm(f.path, { force: true });
      const entries = files.filter((f) => !f.path.includes('.tmp-')).sort((a, b) => a.mtimeMs - b.mtimeMs);
      let total = entries.reduce((sum, f) => sum + f.bytes, 0);
      if (total <= maxBytes) return total;
      for (const f of entries) {
        if (total <= maxBytes * EVICT_TO_SHARE) break;
        await rm(f.path, { force: true });
        total -= f.bytes;
      }
      return total;
    },
  };
  return cache;
}

/**
 * Who grades, as the cache tells graders apart: an outside grader by its endpoint and model (its
 * label), a grader chat by the service, board, chat and model. Never a key or a header.
 */
export function graderIdentity(grader: Grader, service: { baseUrl: string; boardId: string }, request: JudgeRequest): string {
  return grader.kind === 'chat' ? `${service.baseUrl} board ${request.board_id ?? service.boardId} ${grader.label}` : grader.label;
}

/** The checks' port over the cache: a verdict whose grader cannot be told is neither recalled nor kept. */
export function verdictMemo(cache: VerdictCache, identityOf: (request: JudgeRequest) => string | undefined): VerdictMemo {
  const materialOf = (type: string, request: JudgeRequest, votes: number): string | undefined => {
    const grader = identityOf(request);
    return grader === undefined ? undefined : JSON.stringify({ grader, type, votes, prompt: request.prompt });
  };
  return {
    recall: async ({ type, request, votes }) => {
      const material = materialOf(type, request, votes);
      return material === undefined ? undefined : cache.get(material);
    },
    keep: async ({ type, request, votes }, result) => {
      const material = materialOf(type, request, votes);
      if (material !== undefined) await cache.put(material, result);
    },
  };
}
