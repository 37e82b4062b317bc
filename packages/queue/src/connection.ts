import { ConfigError } from '@swarm/core';

/** Where Redis is: a `redis://` URL, or host and port (and credentials) as an object. */
export type RedisConnection =
  | string
  | { host?: string; port?: number; username?: string; password?: string; db?: number };

/** Connection options as both ioredis and BullMQ take them. */
export interface RedisOptions {
  host: string;
  port: number;
  username?: string;
  password?: string;
  db?: number;
  tls?: Record<string, never>;
}

/** The checked connection options; `owner` names the class in error messages. */
export function redisOptions(connection: RedisConnection | undefined, owner: string): RedisOptions {
  if (typeof connection === 'string') {
    let url: URL;
    try {
      url = new URL(connection);
    } catch {
      throw new ConfigError(
        `${owner}: connection must be a redis:// URL or { host, port } (got ${JSON.stringify(connection)}).`,
      );
    }
    if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
      throw new ConfigError(
        `${owner}: connection URL must start with redis:// or rediss:// (got ${url.protocol}//).`,
      );
    }
    const db = url.pathname.length > 1 ? Number(url.pathname.slice(1)) : undefined;
    return {
      host: url.hostname || '127.0.0.1',
      port: url.port ? Number(url.port) : 6379,
      ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      ...(db !== undefined && Number.isInteger(db) ? { db } : {}),
      ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
    };
  }
  if (typeof connection !== 'object' || connection === null) {
    throw new ConfigError(`${owner}: connection is required: a redis:// URL or { host, port }.`);
  }
  const { host = '127.0.0.1', port = 6379, username, password, db } = connection;
  if (typeof host !== 'string' || host === '')
    throw new ConfigError(`${owner}: connection.host must be a non-empty string.`);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new ConfigError(`${owner}: connection.port must be an integer from 1 to 65535 (got ${port}).`);
  }
  return {
    host,
    port,
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined ? { password } : {}),
    ...(db !== undefined ? { db } : {}),
  };
}

/** Checks a queue name: BullMQ keys are `bull:<name>:...`, so no colon. */
export function checkQueueName(name: unknown, owner: string): string {
  if (typeof name !== 'string' || name === '' || name.includes(':')) {
    throw new ConfigError(
      `${owner}: name must be a non-empty string without ':' (got ${JSON.stringify(name)}).`,
    );
  }
  return name;
}
