// A real Prometheus (Debian's package) for the live-metrics tests: its remote-write receiver on a
// free loopback port, its data in a temp folder, queried over its HTTP API.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './helpers.js';

export const PROMETHEUS_BIN = process.env.KBBENCH_PROMETHEUS_BIN ?? '/usr/bin/prometheus';
export const hasPrometheus = existsSync(PROMETHEUS_BIN);

export interface PrometheusHandle {
  url: string;
  writeUrl: string;
  query<T = PromVector>(promql: string): Promise<T>;
  stop(): Promise<void>;
}

export type PromVector = Array<{ metric: Record<string, string>; value: [number, string] }>;
export type PromMatrix = Array<{ metric: Record<string, string>; values: Array<[number, string]> }>;

/** A port nothing listens on (taken, then let go). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function startPrometheus(): Promise<PrometheusHandle> {
  const dir = tempDir('kbbench-prom-');
  const config = join(dir, 'prometheus.yml');
  // Nothing scraped: everything arrives by remote write.
  writeFileSync(config, 'global:\n  scrape_interval: 1m\n');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(PROMETHEUS_BIN, [
    `--config.file=${config}`, '--web.enable-remote-write-receiver', `--web.listen-address=127.0.0.1:${port}`,
    `--storage.tsdb.path=${join(dir, 'data')}`, '--log.level=warn',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`prometheus exited: ${log}`);
    const ready = await fetch(`${url}/-/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    if (i === 299) throw new Error(`prometheus not ready: ${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    writeUrl: `${url}/api/v1/write`,
    async query<T>(promql: string): Promise<T> {
      const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body = (await response.json()) as { status: string; data: { result: T }; error?: string };
      if (body.status !== 'success') throw new Error(`${promql}: ${body.error}`);
      return body.data.result;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
