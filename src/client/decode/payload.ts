// Reads one JSON stream payload: an AI SDK UI-message chunk or an OpenAI chat-completion chunk.
import { StreamError } from '../../domain/index.js';
import type { DecodedEvent } from './events.js';
import { parseJsonLenient, readCredits } from '../credit-value.js';

export type PayloadShape = 'ui' | 'openai';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Parses a payload, turning bad JSON into a typed StreamError naming the dialect. */
export function parseJsonPayload(raw: string, where: string): unknown {
  try {
    return parseJsonLenient(raw);
  } catch {
    throw new StreamError(`${where} carried a payload that is not JSON: ${preview(raw)}`);
  }
}

export function preview(raw: string, maxChars = 80): string {
  const flat = raw.replace(/\s+/g, ' ');
  return flat.length > maxChars ? `${flat.slice(0, maxChars)}…` : flat;
}

/**
 * The balance a usage object (or a finish chunk's messageMetadata) reports beside credits_used, when it
 * does (the documented usage chunk carries credits_used alone) and when it passes the credit rule.
 */
export function remainingFrom(value: Json): number | undefined {
  if (value.credits_remaining === undefined) return undefined;
  return readCredits(0, value.credits_remaining).creditsRemaining ?? undefined;
}

/**
 * A usage object carries credits when it has `credits_used`; its values pass the one credit rule
 * (client/credit-value.ts): a bad one is kept as invalid, never trusted and never fatal.
 */
export function usageFrom(value: unknown): DecodedEvent | null {
  if (!isObject(value) || !('credits_used' in value)) return null;
  const { creditsUsed, creditsRemaining, invalid } = readCredits(value.credits_used, value.credits_remaining);
  const event: DecodedEvent = { kind: 'usage', creditsUsed };
  if (creditsRemaining !== null) event.creditsRemaining = creditsRemaining;
  if (invalid !== null) event.creditsInvalid = invalid;
  return event;
}

/**
 * Appends the events one payload carries; returns its shape, or null when the payload names no
 * dialect: an unknown shape, or the usage chunk, which both SSE dialects carry alike.
 */
export function interpretPayload(value: unknown, out: DecodedEvent[]): PayloadShape | null {
  if (!isObject(value)) return null;
  if (typeof value.type === 'string') {
    interpretUiChunk(value, out);
    return value.type === 'usage' ? null : 'ui';
  }
  if (Array.isArray(value.choices) || isObject(value.usage)) {
    interpretOpenAiChunk(value, out);
    return 'openai';
  }
  // An error alone (`{"error":{"message":…}}`, OpenAI's mid-stream failure, or `{"error":"…"}`):
  // say what the service said rather than, later, that the stream ended without finishing.
  if (isObject(value.error) || typeof value.error === 'string') out.push({ kind: 'error', message: errorText(value.error) });
  return null;
}

function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  const message = isObject(error) ? error.message : undefined;
  return typeof message === 'string' ? message : preview(JSON.stringify(error));
}

function interpretUiChunk(chunk: Json, out: DecodedEvent[]): void {
  switch (chunk.type) {
    case 'text-delta': {
      // AI SDK 5 names the field `delta`; AI SDK 4's fullStream named it `textDelta`.
      const delta = chunk.delta ?? chunk.textDelta;
      if (typeof delta !== 'string') throw new StreamError(`text-delta chunk without a string delta: ${preview(JSON.stringify(chunk))}`);
      if (delta !== '') out.push({ kind: 'text', text: delta });
      return;
    }
    case 'finish': {
      out.push(typeof chunk.finishReason === 'string' ? { kind: 'finish', finishReason: chunk.finishReason } : { kind: 'finish' });
      // Credits may ride on the finish chunk's message metadata instead of a usage chunk.
      const usage = usageFrom(chunk.messageMetadata);
      if (usage) out.push(usage);
      return;
    }
    case 'usage': {
      const usage = usageFrom(chunk);
      if (usage) out.push(usage);
      return;
    }
    case 'error':
      out.push({ kind: 'error', message: typeof chunk.errorText === 'string' ? chunk.errorText : preview(JSON.stringify(chunk)) });
      return;
    default:
      // start, text-start, text-end, reasoning, tool and data parts carry no answer text.
      return;
  }
}

function interpretOpenAiChunk(chunk: Json, out: DecodedEvent[]): void {
  const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
  if (isObject(choice)) {
    const delta = choice.delta;
    if (isObject(delta) && delta.content !== undefined && delta.content !== null) {
      if (typeof delta.content !== 'string') throw new StreamError('OpenAI chunk with a non-string delta.content');
      if (delta.content !== '') out.push({ kind: 'text', text: delta.content });
    }
    if (typeof choice.finish_reason === 'string') out.push({ kind: 'finish', finishReason: choice.finish_reason });
  }
  // Token usage alone says nothing about credits; only a usage object with credits_used counts.
  const usage = usageFrom(chunk.usage);
  if (usage) out.push(usage);
  if (isObject(chunk.error)) out.push({ kind: 'error', message: errorText(chunk.error) });
}
