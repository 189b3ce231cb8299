// docs/cli.md stays complete: every command `kbbench --help` lists has a section there, and every
// flag its own `--help` lists appears in that section. A new flag without its line fails here;
// `npm run build && node scripts/cli-doc.mjs` rewrites the page's generated part from the help.
// The help is asked of the built CLI in this process (a pipe's width, 120 columns, as a child's):
// a child per command cost ~0.5 s of CPU each for the same text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCliInProcess as runCli } from './helpers.js';

const GLOBAL_FLAGS = ['--help', '--version'];
const PAGE = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');

/** The commands the top-level help lists (`run`, `serve`, …). */
function commandsOf(help: string): string[] {
  const block = help.split(/^Commands:$/m)[1]?.split(/^\S/m)[0] ?? '';
  return [...block.matchAll(/^ {2}kbbench ([a-z-]+)/gm)].map((m) => m[1] ?? '');
}

/** The flags a command's help lists, as `--name`. */
function flagsOf(help: string): string[] {
  const options = help.split(/^Examples:$/m)[0] ?? help;
  return [...options.matchAll(/^ {2,6}(?:-\w, )?(--[a-z0-9-]+)/gm)].map((m) => m[1] ?? '');
}

/** The part of cli.md about one command: its heading to the next. */
function sectionOf(command: string): string {
  const start = PAGE.indexOf(`### \`kbbench ${command}`);
  if (start < 0) return '';
  const next = PAGE.indexOf('\n### ', start + 1);
  return PAGE.slice(start, next < 0 ? undefined : next);
}

describe('docs/cli.md against every --help', () => {
  it('has a section for every command and every flag of each', async () => {
    const top = await runCli(['--help']);
    expect(top.code).toBe(0);
    const commands = commandsOf(top.stdout);
    expect(commands).toEqual(expect.arrayContaining(['run', 'serve', 'compare', 'merge']));
    const missing: string[] = [];
    for (const command of commands) {
      const help = await runCli([command, '--help']);
      expect(help.code, `${command} --help`).toBe(0);
      const section = sectionOf(command);
      if (section === '') missing.push(`kbbench ${command}: no section`);
      for (const flag of flagsOf(help.stdout)) {
        // --help and --version belong to every command: the page says so once, at its top.
        const where = GLOBAL_FLAGS.includes(flag) ? PAGE : section;
        if (!where.includes(`\`${flag}\``)) missing.push(`kbbench ${command} ${flag}`);
      }
    }
    expect(missing, 'run `npm run build && node scripts/cli-doc.mjs`').toEqual([]);
  }, 120_000);
});
