// The stream dialects by name, apart from their schemas (stream.ts, zod): the CLI's flags list them
// on every start, --help included, without loading zod.
export const STREAM_DIALECTS = ['ui-sse', 'data-stream', 'openai-sse', 'ndjson', 'text'] as const;
export type StreamDialect = (typeof STREAM_DIALECTS)[number];
