#!/usr/bin/env node
// Rewrites the generated part of docs/cli.md (below its marker) from each command's own --help, so
// the reference lists exactly the flags the CLI accepts. Run after a flag changes:
//   npm run build && node scripts/cli-doc.mjs
// test/cli-doc.test.ts fails when a flag of some --help is missing from the page.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PAGE = join(ROOT, 'docs', 'cli.md');
export const MARKER = '<!-- Generated below by scripts/cli-doc.mjs from each command\'s --help: edit the help, then rerun it. -->';

function help(args) {
  return execFileSync(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), ...args, '--help'], { encoding: 'utf8', env: { ...process.env, COLUMNS: '120' } });
}

/** The commands `kbbench --help` lists, as `run <suite>`. */
export function commandsOf(text) {
  const out = [];
  let inCommands = false;
  for (const line of text.split('\n')) {
    if (/^Commands:/.test(line)) inCommands = true;
    else if (/^\S/.test(line)) inCommands = false;
    else if (inCommands) {
      const m = /^ {2}kbbench (\S+(?: [<[][^>\]]+[>\]])*)\s{2,}/.exec(line);
      if (m) out.push(m[1]);
    }
  }
  return out;
}

const TAIL = /\s*((?:\[(?:string|number|boolean|array|count|required|default: [^\]]*|choices: [^\]]*)\]\s*)+)$/;

/** One command's help: its description, flags by group, and the text after its examples. */
export function parseHelp(text) {
  const lines = text.split('\n');
  const describe = (lines[2] ?? '').trim();
  const flags = [];
  let group = '';
  let current;
  let col = 0;
  let section = '';
  const epilogue = [];
  for (const line of lines.slice(3)) {
    if (section === 'examples' && /^\S/.test(line)) section = 'epilogue';
    if (section === 'epilogue') { epilogue.push(line); continue; }
    if (/^Examples:/.test(line)) { section = 'examples'; current = undefined; continue; }
    if (section === 'examples') continue;
    const header = /^([A-Z][\w ()-]*):$/.exec(line);
    if (header) { group = header[1]; current = undefined; continue; }
    const flag = /^( {2,6}(?:-\w, )?)--([a-z0-9-]+)( +)(.*)$/.exec(line);
    const positional = group === 'Positionals' ? /^( {2})([a-z-]+)( +)(.*)$/.exec(line) : null;
    const m = flag ?? positional;
    if (m) {
      col = m[1].length + 2 * Number(Boolean(flag)) + m[2].length + m[3].length;
      current = { group, name: flag ? `--${m[2]}` : `<${m[2]}>`, text: m[4] };
      flags.push(current);
      continue;
    }
    if (current && line.trim() !== '' && line.length > col) current.text += line.slice(col);
  }
  for (const f of flags) {
    const tail = TAIL.exec(f.text);
    f.kind = tail ? tail[1].trim().replace(/\]\s*\[/g, '] [') : '';
    f.text = (tail ? f.text.slice(0, tail.index) : f.text).trim();
  }
  return { describe, flags, epilogue: epilogue.join('\n').trim() };
}

const cell = (s) => s.replace(/\|/g, '\\|');

export function generate() {
  const commands = commandsOf(help([]));
  const parts = [MARKER, ''];
  for (const command of commands) {
    const name = command.split(' ')[0];
    const { describe, flags, epilogue } = parseHelp(help([name]));
    parts.push(`### \`kbbench ${command}\``, '', `${describe[0]?.toUpperCase() ?? ''}${describe.slice(1)}.`, '');
    const rows = flags.filter((f) => f.name !== '--help' && f.name !== '--version');
    if (rows.length > 0) {
      parts.push('| group | flag | what | type, default |', '|---|---|---|---|');
      for (const f of rows) parts.push(`| ${f.group} | \`${f.name}\` | ${cell(f.text)} | ${cell(f.kind.replace(/\[|\]/g, '').replace(/\s+(?=(?:string|number|boolean|array|required|default|choices))/g, '; '))} |`);
      parts.push('');
    }
    if (epilogue) parts.push('```', epilogue, '```', '');
  }
  return parts.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const page = readFileSync(PAGE, 'utf8');
  const at = page.indexOf(MARKER);
  if (at < 0) throw new Error(`docs/cli.md has no marker line: ${MARKER}`);
  writeFileSync(PAGE, `${page.slice(0, at)}${generate()}`);
  process.stdout.write('docs/cli.md: generated part rewritten\n');
}
