// A tiny OpenAI-compatible chat-completions server on 127.0.0.1 (node:http), for the outside-grader
// tests: what crosses the wire is real HTTP, never a mocked fetch.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface GraderRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: { model?: string; messages?: { role: string; content: string }[] } | null;
}

export interface OpenAiGraderServer {
  /** The base URL, `http://127.0.0.1:<port>/v1`. */
  url: string;
  requests: GraderRequest[];
  /** What a chat completion answers: the reply content, or an HTTP status to fail with. */
  reply(handler: (prompt: string, request: GraderRequest) => string | { status: number }): void;
  stop(): Promise<void>;
}

export const GRADER_MODEL = 'grader-1';

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

export async function startOpenAiGraderServer(key: string, model = GRADER_MODEL): Promise<OpenAiGraderServer> {
  const requests: GraderRequest[] = [];
  let handler: (prompt: string, request: GraderRequest) => string | { status: number } = () => '{"pass": true, "score": 1, "reason": "fine"}';
  const server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      const request: GraderRequest = { method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, body: text ? (JSON.parse(text) as GraderRequest['body']) : null };
      requests.push(request);
      if (request.authorization !== `Bearer ${key}`) return send(res, 401, { error: { message: 'Incorrect API key provided' } });
      if (request.method === 'GET' && request.path === '/v1/models') return send(res, 200, { object: 'list', data: [{ id: model, object: 'model' }] });
      if (request.method === 'POST' && request.path === '/v1/chat/completions') {
        const prompt = request.body?.messages?.at(-1)?.content ?? '';
        const answer = handler(prompt, request);
        if (typeof answer !== 'string') return send(res, answer.status, { error: { message: 'the grader broke' } });
        return send(res, 200, {
          id: 'chatcmpl-1', object: 'chat.completion', model: request.body?.model,
          choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 },
        });
      }
      send(res, 404, { error: { message: `no route ${request.path}` } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (next) => {
      handler = next;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A section of a grading prompt, as the grader reads it: the text kbbench quoted between its markers. */
export function sectionOf(prompt: string, name: string): string {
  return new RegExp(`^<<<${name} ([0-9a-f]{8})\\n([\\s\\S]*?)\\n${name} \\1>>>$`, 'm').exec(prompt)?.[2] ?? '';
}
