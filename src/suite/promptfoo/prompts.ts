// promptfoo's `prompts`: texts, `file://` prompt files (a .txt split on lines of `---`, as promptfoo
// splits them) and `{ raw | id, label }` maps. A chat-format prompt (a list of messages) cannot be
// one message to the service: an input error saying what to write.
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { SourceLocation } from '../../domain/suite.js';
import { isFileReference, resolveInclude } from '../include.js';
import type { YamlLocator } from '../yaml-locator.js';
import { shownPath, type Problems } from './test-model.js';

export interface PromptfooPrompt {
  text: string;
  label?: string;
  location: SourceLocation;
}

const PROMPT_FILES = new Set(['.txt', '.md', '.prompt', '.j2', '.njk']);

function fromFile(entry: string, configFile: string, where: SourceLocation & { field: string }, problems: Problems): PromptfooPrompt[] {
  const files = resolveInclude(entry, configFile);
  if (files.length === 0) problems.add(`${entry} names no file`, where);
  return files.flatMap((path) => {
    const shown = shownPath(path, configFile);
    if (!PROMPT_FILES.has(extname(path).toLowerCase())) {
      problems.add(`prompt file ${shown}: kbbench reads text prompt files (.txt, .md, .prompt, .j2, .njk); a chat-format or code prompt cannot be one message to the service: write the message as text`, where);
      return [];
    }
    const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
    // Each part keeps the line it starts on, so a template error names the right one.
    let line = 1;
    return text.split(/\r?\n---\r?\n/).flatMap((part) => {
      const startLine = line + (/^\s*/.exec(part)![0].match(/\n/g)?.length ?? 0);
      line += (part.match(/\n/g)?.length ?? 0) + 2;
      const trimmed = part.trim();
      return trimmed === '' ? [] : [{ text: trimmed, location: { file: shown, line: startLine } }];
    });
  });
}

/** The prompts in order; problems are collected at their lines. */
export function readPrompts(raw: unknown, configFile: string, locator: YamlLocator, problems: Problems): PromptfooPrompt[] {
  if (raw === undefined || raw === null) {
    problems.add('a promptfoo config needs prompts (the messages its tests fill in with {{vars}})', { ...locator.location([]), field: 'prompts' });
    return [];
  }
  const entries = Array.isArray(raw) ? raw : [raw];
  return entries.flatMap((entry, index) => {
    const path = Array.isArray(raw) ? ['prompts', index] : ['prompts'];
    const where = { ...locator.location(path), field: Array.isArray(raw) ? `prompts[${index}]` : 'prompts' };
    const record = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as Record<string, unknown>) : undefined;
    const label = typeof record?.label === 'string' ? record.label : undefined;
    const body = typeof entry === 'string' ? entry : (record?.raw ?? record?.id);
    if (typeof body !== 'string' || body.trim() === '') {
      problems.add('a prompt is a text, file://PATH, or a map with raw (or id: file://PATH) and label', where);
      return [];
    }
    const found = isFileReference(body) ? fromFile(body, configFile, where, problems) : [{ text: body, location: locator.location(path) }];
    return found.map((prompt) => (label === undefined ? prompt : { ...prompt, label }));
  });
}
