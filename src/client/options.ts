// Client options, their defaults and their validation (a bad option is a ConfigError up front).
import { ConfigError } from '../domain/index.js';
import { STREAM_DIALECTS, type StreamDialect } from '../protocol/index.js';

export interface ClientOptions {
  /** `https://host[:port][/prefix]`; endpoints are appended to the prefix. */
  baseUrl: string;
  apiKey: string;
  /** Where the key goes: a header (default) or the `api_key` query parameter. */
  auth?: 'header' | 'query';
  /**
   * Header that carries the key. Default `x-api-key`: interface.md names `api_key`, but nginx and
   * other proxies drop headers with underscores by default (underscores_in_headers off), so a key
   * sent as `api_key` can vanish between the client and a service behind such a proxy. The live
   * service's reference pages use `x-api-key`. Set `api_key` to follow interface.md literally.
   */
  apiKeyHeader?: string;
  /** 'auto' detects the stream format from each response; a dialect forces that decoder. */
  dialect?: 'auto' | StreamDialect;
  /**
   * Keep-alive connections to the origin. Default: unbounded, so a load test's concurrency is
   * never queued inside the client (queueing would show up as service latency).
   */
  connections?: number;
  /** Whole-request limit in ms when a request gives none; 0 disables it. Default 120 000. */
  timeoutMs?: number;
  /** How long an idle keep-alive socket is kept. Default 30 000. */
  keepAliveTimeoutMs?: number;
  /** Extra headers on every request (e.g. user-agent). */
  headers?: Record<string, string>;
  /** How much of an error body is kept for the error's `body`. Default 8 KiB. */
  errorBodyLimitBytes?: number;
  /**
   * The most a 2xx body (JSON document or stream) may carry before it is given up. Default 64 MiB:
   * far above any answer, yet a body that never ends (a wrong base URL serving a file) cannot take
   * the harness's memory with it.
   */
  maxBodyBytes?: number;
}

export interface ResolvedOptions {
  origin: string;
  basePath: string;
  apiKey: string;
  auth: 'header' | 'query';
  apiKeyHeader: string;
  dialect: 'auto' | StreamDialect;
  connections: number | null;
  timeoutMs: number;
  keepAliveTimeoutMs: number;
  headers: Record<string, string>;
  errorBodyLimitBytes: number;
  maxBodyBytes: number;
}

export const DEFAULT_API_KEY_HEADER = 'x-api-key';
export const DEFAULT_TIMEOUT_MS = 120_000;
const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function parseBaseUrl(baseUrl: string): { origin: string; basePath: string } {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError(`baseUrl is not a URL: ${baseUrl}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`baseUrl must be http(s): ${url.protocol}`);
  if (url.search !== '' || url.username !== '' || url.password !== '') {
    // Never echo it: a query or userinfo could hold a secret.
    throw new ConfigError('baseUrl must not carry a query string or credentials; pass apiKey instead');
  }
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
}

function checkPositive(name: string, value: number | undefined, allowZero: boolean): void {
  if (value === undefined) return;
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) throw new ConfigError(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, got ${value}`);
}

export function resolveOptions(options: ClientOptions): ResolvedOptions {
  const { origin, basePath } = parseBaseUrl(options.baseUrl);
  if (typeof options.apiKey !== 'string') throw new ConfigError('apiKey must be a string');
  const apiKeyHeader = (options.apiKeyHeader ?? DEFAULT_API_KEY_HEADER).toLowerCase();
  if (!HEADER_TOKEN.test(apiKeyHeader)) throw new ConfigError(`apiKeyHeader is not a valid header name: ${apiKeyHeader}`);
  const auth = options.auth ?? 'header';
  if (auth !== 'header' && auth !== 'query') throw new ConfigError(`auth must be 'header' or 'query', got ${String(auth)}`);
  const dialect = options.dialect ?? 'auto';
  if (dialect !== 'auto' && !(STREAM_DIALECTS as readonly string[]).includes(dialect)) throw new ConfigError(`unknown stream dialect: ${String(dialect)}`);
  checkPositive('connections', options.connections, false);
  checkPositive('timeoutMs', options.timeoutMs, true);
  checkPositive('keepAliveTimeoutMs', options.keepAliveTimeoutMs, false);
  checkPositive('errorBodyLimitBytes', options.errorBodyLimitBytes, false);
  checkPositive('maxBodyBytes', options.maxBodyBytes, false);
  return {
    origin,
    basePath,
    apiKey: options.apiKey,
    auth,
    apiKeyHeader,
    dialect,
    connections: options.connections === undefined ? null : Math.floor(options.connections),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? 30_000,
    headers: { 'user-agent': 'kbbench', ...options.headers },
    errorBodyLimitBytes: options.errorBodyLimitBytes ?? 8 * 1024,
    maxBodyBytes: options.maxBodyBytes ?? 64 * 1024 * 1024,
  };
}
