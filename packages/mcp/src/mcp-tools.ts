import type { Tool as ServerTool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  AbortError,
  ConfigError,
  errorMessage,
  isTimerMs,
  type JsonSchema,
  MAX_TIMER_MS,
  type Tool,
  type ToolContext,
  ToolError,
  tool,
} from '@swarm/core';
import { jsonSchemaParameters } from './json-schema-parameters.js';
import { checkServer, isServer } from './server-config.js';
import { type McpServer, ServerConnection } from './server-connection.js';
import { resultText } from './tool-result.js';

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
   * Ask a person before each call. Reserved for core's coming `tool({ needsApproval })`: until
   * `@swarm/core` has it, setting it is a ConfigError rather than calls that run unapproved.
   */
  needsApproval?:
    | boolean
    | ((args: Record<string, unknown>, context: ToolContext) => boolean | Promise<boolean>);
}

/** Options of `mcpTools`: the server's options, and what holds for the whole set. */
export interface McpToolsOptions extends McpServerOptions {
  /** How the server is named in messages (default: the name it reports). With several servers, their keys. */
  name?: string;
  /** Ends the servers when it aborts: give it a run's signal, and an abort of the run ends them too. */
  signal?: AbortSignal;
}

/** Several servers at once, by name: the `mcpServers` object of a desktop client's config fits. */
export type McpServers = Record<string, McpServer & McpServerOptions>;

/** A server's tools as swarm tools, and the way to end the server. */
export interface McpToolset {
  /** Give these to an Agent (`tools: toolset.tools`). */
  readonly tools: Tool[];
  /** The connected servers, by name; `pid` is a stdio server's process. */
  readonly servers: readonly { name: string; pid: number | undefined }[];
  /** Tools left out because swarm cannot call them (they require MCP tasks), with why. */
  readonly skipped: readonly { server: string; tool: string; reason: string }[];
  /** Ends every server (a stdio server's process has exited when it resolves). Safe to call twice. */
  close(): Promise<void>;
}

const defaultTimeoutMs = 60_000;
const defaultMaxResultChars = 100_000;
const modelToolName = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Connects to an MCP server (a command to start over stdio, or a URL over streamable HTTP), or to
 * several by name, and gives their tools as swarm Tools: the server's JSON Schemas go to the model
 * as they are, arguments are checked against them before the call, and every call carries the run's
 * signal and a time limit. A failed, timed-out, malformed or crashed call is a tool error the model
 * sees; the run goes on. Call `close()` when done (or pass `signal`): it ends the server processes.
 */
export async function mcpTools(
  server: McpServer | McpServers,
  options: McpToolsOptions = {},
): Promise<McpToolset> {
  const entries = serverEntries(server, options);
  if (options.signal?.aborted) throw new AbortError(undefined, { cause: options.signal.reason });
  const opened = await Promise.allSettled(
    entries.map(({ name, server: config, options: settings }) =>
      ServerConnection.open(config, { name, timeoutMs: startLimit(settings), signal: options.signal }),
    ),
  );
  const connections = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
  const closeAll = () => Promise.all(connections.map((c) => c.close())).then(() => undefined);
  const failed = opened.find((o) => o.status === 'rejected');
  if (failed) {
    await closeAll();
    throw failed.reason;
  }

  const tools: Tool[] = [];
  const skipped: { server: string; tool: string; reason: string }[] = [];
  const owners = new Map<string, string>();
  try {
    for (const [index, connection] of connections.entries()) {
      const settings = entries[index]!.options;
      const offered = await connection.listTools(startLimit(settings));
      // One validator per server: ajv compiles each schema once, and keeps schemas by `$id`, which
      // two servers may both use.
      const validator = new AjvJsonSchemaValidator();
      for (const serverTool of selectTools(connection.label, offered, settings, skipped)) {
        const made = swarmTool(connection, serverTool, settings, validator);
        const owner = owners.get(made.name);
        if (owner !== undefined) throw clash(made.name, owner, connection.label, owner === connection.label);
        owners.set(made.name, connection.label);
        tools.push(made);
      }
    }
  } catch (error) {
    await closeAll();
    throw error;
  }

  if (options.signal?.aborted) {
    await closeAll();
    throw new AbortError(undefined, { cause: options.signal.reason });
  }
  let closing: Promise<void> | undefined;
  const close = () => {
    options.signal?.removeEventListener('abort', close);
    closing ??= closeAll();
    return closing;
  };
  options.signal?.addEventListener('abort', close, { once: true });
  return {
    tools,
    servers: connections.map((c) => ({ name: c.label, pid: c.pid })),
    skipped,
    close,
  };
}

const startLimit = (settings: Settings) => Math.max(settings.timeoutMs, defaultTimeoutMs);

type Settings = Required<Omit<McpServerOptions, 'include' | 'exclude' | 'needsApproval'>> &
  Pick<McpServerOptions, 'include' | 'exclude'>;

// One server, or several by name, each with its options (its own, over the shared ones), checked
// before anything starts.
function serverEntries(
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
  if (options.needsApproval !== undefined) {
    throw new ConfigError(
      `${where}: needsApproval needs approvals in @swarm/core's tool(), which this version does not have yet; leave it out, or exclude the tools that must not run unasked.`,
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
  return { include: options.include, exclude: options.exclude, timeoutMs, maxResultChars, prefix };
}

// The server's tools that `include` / `exclude` keep. Names there must exist, so a typo is caught
// at once; tools that can only run as MCP tasks are set aside (and may not be included).
function selectTools(
  server: string,
  offered: ServerTool[],
  settings: Settings,
  skipped: { server: string; tool: string; reason: string }[],
): ServerTool[] {
  const names = new Set(offered.map((t) => t.name));
  for (const key of ['include', 'exclude'] as const) {
    const unknown = (settings[key] ?? []).filter((name) => !names.has(name));
    if (unknown.length > 0) {
      throw new ConfigError(
        `mcpTools: ${key} names ${unknown.map((n) => `"${n}"`).join(', ')}, which MCP server "${server}" does not offer. It offers: ${[...names].join(', ')}.`,
      );
    }
  }
  const kept = offered.filter(
    (t) =>
      (settings.include === undefined || settings.include.includes(t.name)) &&
      !settings.exclude?.includes(t.name),
  );
  return kept.filter((t) => {
    if (t.execution?.taskSupport !== 'required') return true;
    const reason = 'it runs only as an MCP task, which swarm does not call';
    if (settings.include?.includes(t.name)) {
      throw new ConfigError(`mcpTools: "${t.name}" of MCP server "${server}" cannot be included: ${reason}.`);
    }
    skipped.push({ server, tool: t.name, reason });
    return false;
  });
}

// One server tool as a swarm Tool. Its name is made one a model accepts (letters, digits, `_`, `-`,
// at most 64), the call goes out under the server's own name.
function swarmTool(
  connection: ServerConnection,
  serverTool: ServerTool,
  settings: Settings,
  validator: AjvJsonSchemaValidator,
): Tool {
  const name = `${settings.prefix}${serverTool.name.replace(/[^a-zA-Z0-9_-]/g, '_')}`.slice(0, 64);
  if (!modelToolName.test(name)) {
    throw new ConfigError(`mcpTools: MCP server "${connection.label}" offers a tool with no usable name.`);
  }
  const schema = serverTool.inputSchema as JsonSchema;
  let validate: (args: unknown) => { valid: boolean; errorMessage?: string | undefined };
  try {
    validate = validator.getValidator(serverTool.inputSchema);
  } catch (error) {
    throw new ConfigError(
      `mcpTools: the input schema of "${serverTool.name}" (MCP server "${connection.label}") is not a valid JSON Schema: ${errorMessage(error)}. Exclude the tool to use the others.`,
      { cause: error },
    );
  }
  const { timeoutMs, maxResultChars } = settings;
  return tool({
    name,
    description: serverTool.description ?? serverTool.title ?? serverTool.annotations?.title ?? '',
    parameters: jsonSchemaParameters(schema, (args) => {
      const outcome = validate(args);
      return outcome.valid ? undefined : (outcome.errorMessage ?? 'the arguments do not fit the schema');
    }),
    timeoutMs,
    async execute(args: Record<string, unknown>, context: ToolContext) {
      let result: Awaited<ReturnType<ServerConnection['callTool']>>;
      try {
        result = await connection.callTool(serverTool.name, args, {
          signal: context.signal,
          // The agent's own limit (the same `timeoutMs`, started first) says it better; this one is
          // the backstop for a call made outside an agent.
          timeoutMs: timeoutMs + 1_000,
          onProgress: (progress) =>
            context.run.emit({
              type: 'mcp.progress',
              agent: context.agent,
              tool: name,
              toolCallId: context.toolCallId,
              server: connection.label,
              progress: progress.progress,
              total: progress.total,
              message: progress.message,
            }),
        });
      } catch (error) {
        if (context.signal?.aborted) throw error;
        throw new ToolError(name, errorMessage(error), { cause: error });
      }
      const text = resultText(result, maxResultChars);
      if (result.isError)
        throw new ToolError(name, text.trim() === '' ? `"${name}" failed without saying why.` : text);
      return text;
    },
  });
}

function clash(name: string, first: string, second: string, sameServer: boolean): ConfigError {
  if (sameServer) {
    return new ConfigError(
      `mcpTools: two tools of MCP server "${first}" are both named "${name}" once made names a model accepts; exclude one of them.`,
    );
  }
  return new ConfigError(
    `mcpTools: the tool "${name}" is offered by MCP server "${first}" and by MCP server "${second}". Exclude it from one of them, or give one a prefix (prefix: "${second.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 31)}_").`,
  );
}
