import { ConfigError } from '@swarm/core';
import type { McpServer } from './server-connection.js';

/** True for one server's settings (a command or a URL), false for an object of servers by name. */
export function isServer(value: unknown): value is McpServer {
  if (typeof value !== 'object' || value === null) return false;
  const { command, url } = value as { command?: unknown; url?: unknown };
  return typeof command === 'string' || typeof url === 'string' || url instanceof URL;
}

/** Checks one server's settings before anything starts; a mistake is a ConfigError naming the field. */
export function checkServer(server: McpServer, where: string): McpServer {
  const { command, url } = server as { command?: unknown; url?: unknown };
  if (command !== undefined && url !== undefined) {
    throw new ConfigError(`${where}: give a command (stdio) or a url (streamable HTTP), not both.`);
  }
  if ('command' in server) {
    if (typeof server.command !== 'string' || server.command.trim() === '') {
      throw new ConfigError(`${where}: command must be a non-empty string.`);
    }
    if (server.args !== undefined && !isStringArray(server.args)) {
      throw new ConfigError(`${where}: args must be an array of strings.`);
    }
    if (server.env !== undefined && !isStringRecord(server.env)) {
      throw new ConfigError(`${where}: env must be an object of string values.`);
    }
    if (server.cwd !== undefined && typeof server.cwd !== 'string') {
      throw new ConfigError(`${where}: cwd must be a string.`);
    }
    return server;
  }
  let parsed: URL;
  try {
    parsed = server.url instanceof URL ? server.url : new URL(server.url);
  } catch {
    throw new ConfigError(
      `${where}: url must be an http(s) URL (got ${JSON.stringify(String(server.url))}).`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(`${where}: url must be an http(s) URL (got ${JSON.stringify(parsed.href)}).`);
  }
  if (server.headers !== undefined && !isStringRecord(server.headers)) {
    throw new ConfigError(`${where}: headers must be an object of string values.`);
  }
  return server;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string')
  );
}
