import { describe, expect, it } from 'vitest';
import { runChildService, type ChildHost } from './child-lifecycle.js';
import { DEMO } from './test-helpers.js';

interface FakeHost extends ChildHost {
  stdout: string[];
  stderr: string[];
  exits: number[];
  shutdown?: (reason: string) => void;
}

function fakeHost(args: string[]): FakeHost {
  const host: FakeHost = {
    args,
    stdout: [],
    stderr: [],
    exits: [],
    writeStdout: (line) => host.stdout.push(line),
    writeStderr: (line) => host.stderr.push(line),
    onShutdownRequest: (listener) => {
      host.shutdown = listener;
    },
    exit: (code) => host.exits.push(code),
  };
  return host;
}

describe('the child-process entry', () => {
  it('announces url and keys in one JSON line, serves, and closes on request', async () => {
    const host = fakeHost([JSON.stringify({ latencyScale: 0, seed: 3 })]);
    const running = await runChildService(host);
    expect(host.stdout).toHaveLength(1);
    const ready = JSON.parse(host.stdout[0] ?? '{}') as { url: string; keys: string[] };
    expect(ready.keys[0]).toBe(DEMO.key);
    expect((await fetch(`${ready.url}/api/boards`, { headers: { 'x-api-key': DEMO.key } })).status).toBe(200);
    host.shutdown?.('SIGTERM');
    await expect.poll(() => host.exits).toEqual([0]);
    expect(running).toBeDefined();
    await expect(fetch(`${ready.url}/api/boards`)).rejects.toThrow();
  });

  it('reports bad options and workspaces as one JSON error line and exit code 2', async () => {
    const badJson = fakeHost(['{nope']);
    await runChildService(badJson);
    expect(JSON.parse(badJson.stdout[0] ?? '{}')).toMatchObject({ code: 'SERVICE_OPTIONS_INVALID' });
    expect(badJson.exits).toEqual([2]);
    const badWorkspace = fakeHost([JSON.stringify({ workspacePath: '/nonexistent/ws.yaml' })]);
    await runChildService(badWorkspace);
    expect(JSON.parse(badWorkspace.stdout[0] ?? '{}')).toMatchObject({ code: 'WORKSPACE_INVALID' });
    expect(badWorkspace.exits).toEqual([2]);
    expect(badWorkspace.stderr[0]).toContain('/nonexistent/ws.yaml');
  });
});
