// `kbbench boards` and `kbbench chats --board ID`: find the IDs a suite needs on a live service.
import type { Argv, CommandModule } from 'yargs';
import { createClient } from '../../client/index.js';
import { InputError } from '../../domain/errors.js';
import { EXIT, type ExitCode } from '../exit.js';
import type { CliIo } from '../io.js';
import { requireApiKey } from '../secrets.js';

function target<T>(y: Argv<T>) {
  return y
    .option('base-url', { type: 'string', describe: 'service base URL (env KBBENCH_BASE_URL)' })
    .option('api-key-file', { type: 'string', describe: 'file holding the API key (else env KBBENCH_API_KEY)' })
    .option('auth', { choices: ['header', 'query'] as const, default: 'header' as const })
    .option('json', { type: 'boolean', default: false });
}

function clientFor(io: CliIo, a: Record<string, unknown>) {
  const baseUrl = (a.baseUrl as string | undefined) ?? io.env.KBBENCH_BASE_URL;
  if (!baseUrl) throw new InputError('name the service with --base-url or KBBENCH_BASE_URL (try `kbbench serve` for a local one)', { field: '--base-url' });
  const apiKey = requireApiKey(io, a.apiKeyFile as string | undefined);
  return createClient({ baseUrl, apiKey, auth: a.auth as 'header' | 'query' });
}

export function boardsCommand(io: CliIo, setExit: (code: ExitCode) => void): CommandModule {
  return {
    command: 'boards',
    describe: 'list the boards the API key can see',
    builder: (y) => target(y).example('KBBENCH_API_KEY=… $0 boards --base-url http://127.0.0.1:8787', 'boards of a local reference service'),
    handler: async (argv) => {
      const client = clientFor(io, argv as Record<string, unknown>);
      try {
        const boards = await client.listBoards();
        if (argv.json) io.out(JSON.stringify(boards, null, 2));
        else for (const b of boards) io.out(`${b.id}\t${b.name}`);
        setExit(EXIT.ok);
      } finally {
        await client.close();
      }
    },
  };
}

export function chatsCommand(io: CliIo, setExit: (code: ExitCode) => void): CommandModule {
  return {
    command: 'chats',
    describe: 'list the chat assistants of a board, with their conversations',
    builder: (y) =>
      target(y)
        .option('board', { type: 'string', demandOption: true, describe: 'board id' })
        .example('KBBENCH_API_KEY=… $0 chats --board winter-frost-CJk4G --base-url http://127.0.0.1:8787', 'chats of the demo board'),
    handler: async (argv) => {
      const client = clientFor(io, argv as Record<string, unknown>);
      try {
        const chats = await client.listChats(argv.board as string);
        if (argv.json) io.out(JSON.stringify(chats, null, 2));
        else for (const c of chats) io.out(`${c.id}\t${c.conversations.length} conversations`);
        setExit(EXIT.ok);
      } finally {
        await client.close();
      }
    },
  };
}
