// Log entries for the traffic kind's unit tests: records at offsets (seconds), optionally in a conversation.
import type { LogEntry } from './read-log.js';

export function entriesOf(rows: readonly (readonly [seconds: number, conversation?: string])[]): LogEntry[] {
  return rows.map(([seconds, conversation], i) => ({
    offsetMs: seconds * 1000,
    record: { line: i + 1, at: { seconds }, prompt: `question ${i + 1}`, checks: [], ...(conversation !== undefined ? { conversation } : {}) },
  }));
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
