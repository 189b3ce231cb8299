import { describe, expect, it } from 'vitest';
import { resolveServiceOptions } from '../server/index.js';
import type { EmbeddedServiceOptions } from '../config/run-config.js';
import { childServiceOptions } from './embedded.js';

describe('childServiceOptions', () => {
  it('hands the child a loopback host, a free port and the service options set, nothing else', () => {
    const run = { seed: 7, latencyScale: 0.5, degradeQuality: true, pauseEveryMs: 10_000, pauseForMs: 1000, workspacePath: 'w.yaml', stages: '20s:2' };
    const child = childServiceOptions(run as EmbeddedServiceOptions);
    expect(child).toEqual({ host: '127.0.0.1', port: 0, seed: 7, latencyScale: 0.5, degradeQuality: true, pauseEveryMs: 10_000, pauseForMs: 1000, workspacePath: 'w.yaml' });
    // The child's schema is strict: what it is handed must parse.
    expect(resolveServiceOptions(child)).toMatchObject({ seed: 7, pauseForMs: 1000, overloadStatus: 429 });
  });

  it('leaves unset options to the child’s defaults', () => {
    expect(childServiceOptions({})).toEqual({ host: '127.0.0.1', port: 0 });
    expect(childServiceOptions({ seed: undefined })).toEqual({ host: '127.0.0.1', port: 0 });
  });
});
