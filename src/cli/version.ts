// kbbench's version, read from its package.json (one source of truth).
import { readFileSync } from 'node:fs';

export const TOOL_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
