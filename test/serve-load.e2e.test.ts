// `kbbench serve`'s capacity and pause flags reach the service, and bad values exit 2 naming the flag.
import { describe, expect, it } from 'vitest';
import { runCliInProcess as runCli, startServe } from './helpers.js';

const ASK = '/api/conversation?board_id=winter-frost-CJk4G&chat_id=chatNode-patient-star-4uIJt&model=gpt-4o&streaming=true&prompt=How+long+is+the+free+trial%3F';

describe('serve under load', () => {
  it('answers 503 with Retry-After once a model’s one slot is busy and its queue is 0', async () => {
    const serve = await startServe(['--slots', '1', '--queue-limit', '0', '--overload-status', '503', '--retry-after', '2']);
    try {
      const headers = { 'x-api-key': serve.key };
      const first = await fetch(serve.url + ASK, { headers });
      expect(first.status).toBe(200);
      const second = await fetch(serve.url + ASK, { headers });
      expect([second.status, second.headers.get('retry-after')]).toEqual([503, '2']);
      expect(((await second.json()) as { error: string }).error).toBe('Service Unavailable');
      await first.text();
      const third = await fetch(serve.url + ASK, { headers });
      expect(third.status).toBe(200);
      await third.body?.cancel();
    } finally {
      await serve.stop();
    }
  });

  it('refuses a pause as long as its period, on serve and on run, naming --pause-for', async () => {
    const served = await runCli(['serve', '--port', '0', '--pause-every', '1s', '--pause-for', '1s']);
    expect(served.code, served.stderr).toBe(2);
    expect(served.stderr).toContain('--pause-for');
    const ran = await runCli(['run', 'suites/load-demo.yaml', '--pause-for', '1s']);
    expect(ran.code, ran.stderr).toBe(2);
    expect(ran.stderr).toContain('--pause-for');
  });
});
