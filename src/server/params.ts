// Reading and validating the parameters of ask, continue and create, from query or JSON body alike.
import { DEFAULT_MODEL, isFlagOn } from '../protocol/index.js';

/** Parameters of ask (4.1, 4.2) and continue (4.3, 4.4), defaults applied. */
export interface AnswerParams {
  boardId: string;
  chatId: string;
  prompt: string;
  model: string;
  plaintext: boolean;
  streaming: boolean;
  includeUsage: boolean;
  additionalContext: string;
  saveHistory: boolean;
  user?: string;
  source?: string;
}

export interface CreateParams {
  boardId: string;
  chatId: string;
  name?: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; details: Record<string, string> };

type Input = Record<string, unknown>;

/** Query parameters as an input record (the first value of a repeated name wins). */
export function queryInput(query: URLSearchParams): Input {
  const input: Input = {};
  for (const [name, value] of query) if (!(name in input)) input[name] = value;
  return input;
}

class FieldReader {
  readonly details: Record<string, string> = {};
  constructor(private readonly input: Input) {}

  optionalString(...names: string[]): string | undefined {
    for (const name of names) {
      const value = this.input[name];
      if (value === undefined || value === null) continue;
      if (typeof value === 'string') return value;
      this.details[name] = 'must be a string';
      return undefined;
    }
    return undefined;
  }

  requiredString(...names: string[]): string {
    const value = this.optionalString(...names);
    const name = names[0] ?? 'value';
    if (value === undefined && !names.some((n) => n in this.details)) this.details[name] = 'is required';
    else if (value !== undefined && value.trim() === '') this.details[name] = 'must not be empty';
    return value ?? '';
  }

  /** A flag: true, or the strings `true` / `active`; `undefined` when absent. */
  flag(name: string): boolean | undefined {
    const value = this.input[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' && typeof value !== 'boolean') {
      this.details[name] = 'must be a string or a boolean';
      return undefined;
    }
    return isFlagOn(value);
  }
}

/** save_history defaults to on; only an explicit "no" turns it off. */
function saveHistoryOf(reader: FieldReader, input: Input): boolean {
  const value = input.save_history;
  if (value === undefined || value === null) return true;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return !['false', '0', 'no', 'off', 'inactive'].includes(value.trim().toLowerCase());
  reader.details.save_history = 'must be a boolean or a string';
  return true;
}

export function parseAnswerParams(input: Input, knownModels: ReadonlySet<string>): Parsed<AnswerParams> {
  const reader = new FieldReader(input);
  const boardId = reader.requiredString('board_id', 'boardId');
  const chatId = reader.requiredString('chat_id', 'chatId');
  const prompt = reader.requiredString('prompt');
  const model = reader.optionalString('model') ?? DEFAULT_MODEL;
  if (!('model' in reader.details) && !knownModels.has(model)) {
    reader.details.model = `must be one of: ${[...knownModels].join(', ')}`;
  }
  const value: AnswerParams = {
    boardId,
    chatId,
    prompt,
    model,
    plaintext: reader.flag('plaintext') ?? false,
    streaming: reader.flag('streaming') ?? false,
    includeUsage: reader.flag('include_usage') ?? false,
    additionalContext: reader.optionalString('additional_context') ?? ' ',
    saveHistory: saveHistoryOf(reader, input),
    user: reader.optionalString('user'),
    source: reader.optionalString('source'),
  };
  return Object.keys(reader.details).length > 0 ? { ok: false, details: reader.details } : { ok: true, value };
}

/** The longest conversation name the service keeps (README, "Limits"). */
export const MAX_CONVERSATION_NAME_CHARS = 1000;

export function parseCreateParams(input: Input): Parsed<CreateParams> {
  const reader = new FieldReader(input);
  const boardId = reader.requiredString('boardId', 'board_id');
  const chatId = reader.requiredString('chatId', 'chat_id');
  const name = reader.optionalString('name');
  // A name is a label: 1 MB names by the thousand once exhausted the service's memory.
  if (name !== undefined && name.length > MAX_CONVERSATION_NAME_CHARS) reader.details.name = `must be at most ${MAX_CONVERSATION_NAME_CHARS} characters`;
  return Object.keys(reader.details).length > 0 ? { ok: false, details: reader.details } : { ok: true, value: { boardId, chatId, name } };
}
