// Child-process entry, bundled by scripts/bundle-cli.mjs into dist/server/main.js: `node dist/server/main.js '<ServiceOptions JSON>'` runs the service in its own event loop.
import './zod-jitless.js';
import { fstatSync } from 'node:fs';
import { runChildService, type ChildHost } from './child-lifecycle.js';

/** stdin only signals the parent's death when it is a pipe or socket (not a TTY or /dev/null). */
function stdinIsPipe(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

const host: ChildHost = {
  args: process.argv.slice(2),
  writeStdout: (line) => process.stdout.write(`${line}\n`),
  writeStderr: (line) => process.stderr.write(`${line}\n`),
  onShutdownRequest: (listener) => {
    let requested = false;
    const once = (reason: string) => (): void => {
      if (requested) return;
      requested = true;
      listener(reason);
    };
    process.once('SIGTERM', once('SIGTERM'));
    process.once('SIGINT', once('SIGINT'));
    if (process.connected) process.once('disconnect', once('disconnect'));
    if (stdinIsPipe()) {
      process.stdin.once('end', once('stdin closed'));
      process.stdin.once('close', once('stdin closed'));
      process.stdin.resume();
    }
  },
  exit: (code) => {
    process.exitCode = code;
    // Let stdout drain before leaving; a parent may still be reading the last line.
    process.stdout.write('', () => process.exit(code));
  },
};

void runChildService(host);
