import type { Tool as ServerTool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  AbortError,
  ConfigError,
  errorMessage,
  type JsonSchema,
  type Tool,
  type ToolContext,
  ToolError,
  tool,
} from '@swarm/core';
import { jsonSchemaParameters } from './json-schema-parameters.js';
import {
  type McpServers,
  type McpToolsOptions,
  type Settings,
  serverEntries,
  startLimit,
} from './mcp-tools-options.js';
import { type McpServer, ServerConnection } from './server-connection.js';
import { resultText } from './tool-result.js';

/** A server's tools as swarm tools, and the way to end the server. */
export interface McpToolset {
  /** Give these to an Agent (`tools: toolset.tools`). */
  readonly tools: Tool[];
  /** The connected servers, by name; `pid` is a stdio server's process. */
  readonly servers: readonly { name: string; pid: number | undefined }[];
  /** Tools left out because swarm cannot call them (they require MCP tasks, or their definition is invalid), with why. */
  readonly skipped: readonly { server: string; tool: string; reason: string }[];
  /** Ends every server (a stdio server's process has exited when it resolves). Safe to call twice. */
  close(): Promise<void>;
}

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
      const listed = await connection.listTools(startLimit(settings));
      const offered = listed.tools;
      for (const { tool: bad, reason } of listed.invalid) {
        // Named by the user: a mistake to say at once. Otherwise the server's other tools go on.
        if (settings.include?.includes(bad)) {
          throw new ConfigError(
            `mcpTools: "${bad}" of MCP server "${connection.label}" cannot be included: ${reason}.`,
          );
        }
        skipped.push({ server: connection.label, tool: bad, reason });
        options.onEvent?.({
          type: 'warning',
          runId: '',
          at: new Date().toISOString(),
          source: 'mcpTools',
          server: connection.label,
          tool: bad,
          message: `mcpTools: the tool "${bad}" of MCP server "${connection.label}" is skipped: ${reason}.`,
        });
      }
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

// The server's tools that `include` / `exclude` keep. Names there must exist, so a typo is caught
// at once; tools that can only run as MCP tasks are set aside (and may not be included).
function selectTools(
  server: string,
  offered: ServerTool[],
  settings: Settings,
  skipped: { server: string; tool: string; reason: string }[],
): ServerTool[] {
  const names = new Set([
    ...offered.map((t) => t.name),
    ...skipped.filter((s) => s.server === server).map((s) => s.tool),
  ]);
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
  const { timeoutMs, maxResultChars, needsApproval } = settings;
  return tool({
    name,
    ...(needsApproval === undefined
      ? {}
      : {
          needsApproval:
            typeof needsApproval === 'function'
              ? (args: Record<string, unknown>, context: ToolContext) =>
                  needsApproval(args, { ...context, tool: name })
              : needsApproval,
        }),
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
