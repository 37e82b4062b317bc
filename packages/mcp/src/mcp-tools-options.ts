import { ConfigError, isTimerMs, MAX_TIMER_MS, type SwarmEvent, type ToolContext } from '@swarm/core';
import type { McpServer } from './server-connection.js';

/** Which tools of a server to use, and how to call them. */
export interface McpServerOptions {
  /** Only these tools (the server's own names). A name the server does not offer is a ConfigError. */
  include?: string[];
  /** All tools but these (the server's own names). A name the server does not offer is a ConfigError. */
  exclude?: string[];
  /**
   * Time limit of one call in milliseconds (default 60 000). Starting the server and listing its
   * tools may take a minute, or `timeoutMs` if that is longer: `npx` may be downloading it.
   */
  timeoutMs?: number;
  /** Put before every tool name the model sees (`fs_` gives `fs_read_file`): keeps two servers' tools apart. */
  prefix?: string;
  /** The longest result the model is sent, in characters (default 100 000); a longer one is cut, saying so. */
  maxResultChars?: number;
  /**
   * A call waits for a person's approval before it goes to the server: always (`true`), or when the
   * function says so for these arguments (`context.tool` names the tool, as the model sees it).
   * Core's `tool({ needsApproval })`: without a decision the run pauses with `RunPausedError`, and
   * `approvals` given with the run's journal resume it.
   */
  needsApproval?:
    | boolean
    | ((
        args: Record<string, unknown>,
        context: ToolContext & { tool: string },
      ) => boolean | Promise<boolean>);
}

/** Options of `mcpTools`: the server's options, and what holds for the whole set. */
export interface McpToolsOptions extends McpServerOptions {
  /** How the server is named in messages (default: the name it reports). With several servers, their keys. */
  name?: string;
  /** Ends the servers when it aborts: give it a run's signal, and an abort of the run ends them too. */
  signal?: AbortSignal;
  /**
   * Told of what connecting found: a `warning` event (`source: 'mcpTools'`, `server`, `tool`,
   * `message`) for each tool skipped because its definition is invalid. No run exists yet, so its
   * `runId` is empty.
   */
  onEvent?: (event: SwarmEvent) => void;
}

/** Several servers at once, by name: the `mcpServers` object of a desktop client's config fits. */
export type McpServers = Record<string, McpServer & McpServerOptions>;

const defaultTimeoutMs = 60_000;
const defaultMaxResultChars = 100_000;

/** How long starting a server and listing its tools may take: a minute, or the call limit if longer. */
export const startLimit = (settings: Settings) => Math.max(settings.timeoutMs, defaultTimeoutMs);

/** One server's options, checked and with their defaults. */
export type Settings = Required<Omit<McpServerOptions, 'include' | 'exclude' | 'needsApproval'>> &
  Pick<McpServerOptions, 'include' | 'exclude' | 'needsApproval'>;

/**
 * One server, or several by name, each with its options (its own over the shared ones), checked
 * before anything starts: a mistake is a ConfigError naming the server and the option.
 */
export function serverEntries(
  server: McpServer | McpServers,
  options: McpToolsOptions,
): { name: string | undefined; server: McpServer; options: Settings }[] {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigError('mcpTools: options must be an object.');
  }
  if (options.name !== undefined && (typeof options.name !== 'string' || options.name.trim() === '')) {
    throw new ConfigError(`mcpTools: name must be a non-empty string (got ${JSON.stringify(options.name)}).`);
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new ConfigError('mcpTools: signal must be an AbortSignal.');
  }
  if (isServer(server)) {
    return [
      {
        name: options.name,
        server: checkServer(server, 'mcpTools'),
        options: settingsOf(options, 'mcpTools'),
      },
    ];
  }
  if (
    typeof server !== 'object' ||
    server === null ||
    Array.isArray(server) ||
    Object.keys(server).length === 0
  ) {
    throw new ConfigError(
      'mcpTools: give a server ({ command, args?, env?, cwd? } or { url, headers? }) or an object of servers by name.',
    );
  }
  if (options.name !== undefined) {
    throw new ConfigError('mcpTools: with several servers, their names are their keys; leave out `name`.');
  }
  return Object.entries(server).map(([name, entry]) => {
    const where = `mcpTools: server "${name}"`;
    if (!isServer(entry))
      throw new ConfigError(`${where} must have a command (stdio) or a url (streamable HTTP).`);
    const { include, exclude, timeoutMs, prefix, maxResultChars, needsApproval, ...config } = entry;
    const own = { include, exclude, timeoutMs, prefix, maxResultChars, needsApproval };
    for (const key of Object.keys(own) as (keyof typeof own)[]) if (own[key] === undefined) delete own[key];
    return { name, server: checkServer(config, where), options: settingsOf({ ...options, ...own }, where) };
  });
}

function settingsOf(options: McpServerOptions, where: string): Settings {
  const { needsApproval } = options;
  if (
    needsApproval !== undefined &&
    typeof needsApproval !== 'boolean' &&
    typeof needsApproval !== 'function'
  ) {
    throw new ConfigError(
      `${where}: needsApproval must be a boolean or a function (got ${typeof needsApproval}).`,
    );
  }
  for (const key of ['include', 'exclude'] as const) {
    const names = options[key];
    if (names !== undefined && !(Array.isArray(names) && names.every((n) => typeof n === 'string'))) {
      throw new ConfigError(`${where}: ${key} must be an array of tool names.`);
    }
  }
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  if (!isTimerMs(timeoutMs)) {
    throw new ConfigError(
      `${where}: timeoutMs must be a positive number of milliseconds, at most ${MAX_TIMER_MS} (got ${options.timeoutMs}).`,
    );
  }
  const maxResultChars = options.maxResultChars ?? defaultMaxResultChars;
  if (!Number.isInteger(maxResultChars) || maxResultChars < 1) {
    throw new ConfigError(
      `${where}: maxResultChars must be an integer >= 1 (got ${options.maxResultChars}).`,
    );
  }
  const prefix = options.prefix ?? '';
  if (typeof prefix !== 'string' || !/^[a-zA-Z0-9_-]{0,32}$/.test(prefix)) {
    throw new ConfigError(
      `${where}: prefix must be at most 32 letters, digits, "_" or "-" (got ${JSON.stringify(options.prefix)}).`,
    );
  }
  return {
    include: options.include,
    exclude: options.exclude,
    timeoutMs,
    maxResultChars,
    prefix,
    needsApproval,
  };
}

/** True for one server's settings (a command or a URL), false for an object of servers by name. */
function isServer(value: unknown): value is McpServer {
  if (typeof value !== 'object' || value === null) return false;
  const { command, url } = value as { command?: unknown; url?: unknown };
  return typeof command === 'string' || typeof url === 'string' || url instanceof URL;
}

// One server's settings; a mistake is a ConfigError naming the field.
function checkServer(server: McpServer, where: string): McpServer {
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
