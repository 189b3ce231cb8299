// Makes the built CLI entry executable, so `npx kbbench` and the package bin work after `npm install`.
import { chmodSync } from 'node:fs';
chmodSync(new URL('../dist/cli/main.js', import.meta.url), 0o755);
