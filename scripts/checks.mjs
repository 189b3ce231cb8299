// `npm test`'s static phase after the build: typecheck, lint and cycles at once (they are
// independent; one after another left the second core idle), each one's output printed whole
// when it ends; exits 1 if any failed.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';

const SCRIPTS = ['typecheck', 'lint', 'cycles'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const results = await Promise.all(
  SCRIPTS.map(
    (script) =>
      new Promise((resolve) => {
        const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
        const output = [];
        child.stdout.on('data', (chunk) => output.push(chunk));
        child.stderr.on('data', (chunk) => output.push(chunk));
        child.on('close', (code, signal) => {
          const text = Buffer.concat(output).toString();
          process.stdout.write(`> npm run ${script}: ${code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`}\n${text}${text.endsWith('\n') || text === '' ? '' : '\n'}`);
          resolve(code === 0);
        });
      }),
  ),
);
process.exit(results.every(Boolean) ? 0 : 1);
