// The OTLP exporter's HTTP agents. The exporter cannot be cancelled (no abort signal; it retries a
// refused or timed-out export by itself, within its timeout), so once the output stopped, what it
// has left must not hold the CLI open: its sockets are unref'd (the run's own work keeps the process
// alive while it runs, and stop()'s deadline timer while it flushes), a stopped output opens no
// new connection (a retry fails at once, with an error the exporter does not retry), and a failed
// connection is not retried at all (below).
import { Agent as HttpAgent, type ClientRequestArgs } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export interface ExportAgents {
  /** The exporter's `httpAgentOptions` factory (one agent per protocol). */
  factory(protocol: string): HttpAgent;
  /** No new connection from now on (requests in flight end by their own timeout, unref'd). */
  stop(): void;
}

export function createExportAgents(): ExportAgents {
  let stopped = false;
  const agents = new Map<string, HttpAgent>();
  return {
    factory(protocol: string): HttpAgent {
      let agent = agents.get(protocol);
      if (agent !== undefined) return agent;
      agent = protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
      const connect = agent.createConnection.bind(agent);
      agent.createConnection = (options: ClientRequestArgs, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined => {
        if (stopped) {
          const error = Object.assign(new Error('the otlp output has stopped'), { code: 'ERR_KBBENCH_OUTPUT_STOPPED' });
          setImmediate(() => callback?.(error, undefined as unknown as Duplex));
          return undefined;
        }
        const socket = connect(options, callback) as Socket | null | undefined;
        socket?.unref?.();
        // A refused or unreachable endpoint fails the export at once rather than after the
        // exporter's retries (up to its whole timeout): each second's export carries the run's totals,
        // so the next second is the retry, and stop() does not wait out its deadline on a dead
        // endpoint. The code is renamed before the request sees the error; the words keep the cause.
        let connected = false;
        socket?.once('connect', () => (connected = true));
        socket?.prependOnceListener('error', (error: NodeJS.ErrnoException) => {
          if (!connected && error.code !== undefined) error.code = `ERR_KBBENCH_CONNECT_${error.code}`;
        });
        return socket;
      };
      agents.set(protocol, agent);
      return agent;
    },
    stop(): void {
      stopped = true;
    },
  };
}
