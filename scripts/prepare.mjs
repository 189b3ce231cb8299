// npm's `prepare`: in a checkout (src/ is there) `npm install` builds everything, as CONTRACT.md
// promises; in an installed package (the tarball carries the built dist/ and no src/) it does
// nothing, so installing kbbench never compiles TypeScript and needs no dev dependency.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (existsSync(new URL('../src/', import.meta.url))) execSync('npm run build', { stdio: 'inherit', cwd: new URL('..', import.meta.url) });
