/**
 * Redis connections for queues, workers and result keys. The URL (redis://, rediss:// for TLS, with
 * user and password when the server wants them) is checked once with a bounded probe, so a wrong host
 * or password is a clear error within seconds instead of a client that retries for ever.
 */
import { readFileSync } from 'node:fs';
import { Redis, type RedisOptions } from 'ioredis';
import { XtrustError } from '@xtrust/core';
import { redactUrl, redactor } from './redact.js';

/** Settings of the connection probe. */
export interface ConnectOptions {
  /** Give up after this long (default 5 s). */
  readonly timeoutMs?: number;
}

/** Environment variable a worker or auditing process reads the Redis URL from when none is passed. */
export const REDIS_URL_ENV = 'XTRUST_REDIS_URL';

/** The URL given, else XTRUST_REDIS_URL; throws a usage error when neither is set. */
export function redisUrl(given?: string): string {
  const url = given ?? process.env[REDIS_URL_ENV];
  if (!url)
    throw new XtrustError('INVALID_ARGUMENT', `no Redis URL: pass --redis <url> or set ${REDIS_URL_ENV}`, {
      argument: 'redis',
    });
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `Redis URL ${redactUrl(url)} is not a URL; expected redis://[user:password@]host:port[/db] or rediss://…`,
      { argument: 'redis' },
    );
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    throw new XtrustError(
      'INVALID_ARGUMENT',
      `Redis URL must start with redis:// or rediss:// (TLS), got ${u.protocol}//`,
      { argument: 'redis' },
    );
  }
  return url;
}

/** Environment variable naming a PEM file of CA certificates to trust for rediss:// (a private CA or a self-signed server). */
export const REDIS_CA_ENV = 'XTRUST_REDIS_CA';

function baseOptions(url: string): RedisOptions {
  // rediss:// turns TLS on (server certificate verified, against XTRUST_REDIS_CA when set, else the
  // system's CAs); ioredis reads user, password, host, port and db from the URL itself.
  if (new URL(url).protocol !== 'rediss:') return {};
  const caFile = process.env[REDIS_CA_ENV];
  if (!caFile) return { tls: {} };
  try {
    return { tls: { ca: readFileSync(caFile) } };
  } catch (e) {
    throw new XtrustError('FILE_UNREADABLE', `${REDIS_CA_ENV}=${caFile} cannot be read: ${(e as Error).message}`, {
      file: caFile,
    });
  }
}

/**
 * Connects once with no retries and a deadline, runs PING, and closes. Throws XtrustError('NOT_FOUND')
 * naming the redacted URL and the cause (refused, timed out, wrong password, TLS) when Redis is unusable.
 */
export async function probeRedis(url: string, options: ConnectOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const clean = redactor(url);
  const client = new Redis(url, {
    ...baseOptions(url),
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // ioredis rejects connect() with a bare "Connection is closed"; the cause (ECONNREFUSED, WRONGPASS) comes as an error event
  let cause = '';
  client.on('error', (e: Error) => {
    if (!cause) cause = e.message;
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      (async () => {
        await client.connect();
        await client.ping();
      })(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (e) {
    const said = e instanceof Error ? e.message : String(e);
    const reason = clean(cause && !said.includes(cause) ? `${cause} (${said})` : said);
    const hint = /NOAUTH|WRONGPASS|invalid password|invalid username/i.test(reason)
      ? ' (check the user and password in the URL)'
      : /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|no answer/i.test(reason)
        ? ' (is redis-server running and reachable from this machine?)'
        : /certificate|SSL|TLS|EPROTO/i.test(reason)
          ? ` (TLS: is the server's certificate signed by a CA this machine trusts? point ${REDIS_CA_ENV} at its CA's PEM file)`
          : '';
    throw new XtrustError('NOT_FOUND', `cannot use Redis at ${redactUrl(url)}: ${reason}${hint}`, {
      redis: redactUrl(url),
      reason,
    });
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}

/**
 * A long-lived connection for BullMQ (which needs `maxRetriesPerRequest: null`): it reconnects after a
 * Redis restart instead of failing the worker. Call `probeRedis` first for a clear error on a bad URL.
 */
export function openRedis(url: string, onError?: (message: string) => void): Redis {
  const clean = redactor(url);
  const client = new Redis(url, { ...baseOptions(url), maxRetriesPerRequest: null, enableReadyCheck: true });
  client.on('error', (e: Error) => onError?.(clean(e.message)));
  return client;
}
