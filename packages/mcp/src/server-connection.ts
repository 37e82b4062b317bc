import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  McpError,
  type Progress,
  type Tool as ServerTool,
  ToolSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AbortError, ConfigError, errorMessage } from '@swarm/core';
import { z } from 'zod';
import type { McpServer } from './server-types.js';
import type { StdioTransport } from './stdio-transport.js';

export type { McpHttpServer, McpServer, McpStdioServer } from './server-types.js';

/** What one tool call of the connection is given: the call's signal, its time limit, and a progress listener. */
export interface CallSettings {
  signal: AbortSignal | undefined;
  timeoutMs: number;
  onProgress?: (progress: Progress) => void;
}

/**
 * One MCP client session with one server: starts (or reaches) it, lists its tools, calls them, and
 * ends it. A stdio server's process is ended for sure (see `StdioTransport`): `close()` resolves
 * once it has exited.
 */
export class ServerConnection {
  /** How the server is named in messages: the name given, else the name it reports, else its command or URL. */
  label: string;
  readonly #client = new Client({ name: '@swarm/mcp', version: '0' }, { capabilities: {} });
  readonly #transport: Transport;
  // The same transport when it is a server process, for its pid, its exit and its stderr.
  readonly #process: StdioTransport | undefined;
  #endedBy: 'close' | 'server' | undefined;
  #closing: Promise<void> | undefined;

  private constructor(label: string, transport: Transport, process: StdioTransport | undefined) {
    this.label = label;
    this.#transport = transport;
    this.#process = process;
    // Watched from before the handshake, so a server that dies while starting is seen to end.
    this.#client.onclose = () => {
      this.#endedBy ??= 'server';
    };
  }

  /** The server's process (stdio), once started. */
  get pid(): number | undefined {
    return this.#process?.pid;
  }

  /** Starts or reaches the server and completes the MCP handshake; a server that cannot be reached is a ConfigError. */
  static async open(
    server: McpServer,
    options: { name: string | undefined; timeoutMs: number; signal: AbortSignal | undefined },
  ): Promise<ServerConnection> {
    const { transport, process } = await createTransport(server);
    const label = options.name ?? ('command' in server ? server.command : String(server.url));
    const connection = new ServerConnection(label, transport, process);
    try {
      await connection.#client.connect(transport, { timeout: options.timeoutMs, signal: options.signal });
    } catch (error) {
      await connection.close();
      if (options.signal?.aborted) throw new AbortError(undefined, { cause: options.signal.reason });
      const verb = 'command' in server ? 'started' : 'reached';
      throw new ConfigError(
        `MCP server "${label}" could not be ${verb}: ${describe(error)}${connection.#stderrNote()}`,
        { cause: error },
      );
    }
    connection.label = options.name ?? connection.#client.getServerVersion()?.name ?? label;
    return connection;
  }

  /**
   * Every tool the server offers (all pages of `tools/list`), and the tools whose definition is not
   * a valid MCP tool (an `inputSchema` that is not an object schema, say), with why: those are left
   * out, so one bad tool does not cost the server's others.
   */
  async listTools(
    timeoutMs: number,
  ): Promise<{ tools: ServerTool[]; invalid: { tool: string; reason: string }[] }> {
    const tools: ServerTool[] = [];
    const invalid: { tool: string; reason: string }[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    do {
      const params = cursor === undefined ? {} : { cursor };
      let page: { tools: unknown[]; nextCursor?: string | undefined };
      try {
        page = await this.#client.listTools(params, { timeout: timeoutMs });
      } catch (error) {
        if (!isZodError(error)) throw error;
        // The SDK refuses the whole page for one bad tool: read it leniently and check each tool.
        page = await this.#client.request({ method: 'tools/list', params }, lenientToolsPage, {
          timeout: timeoutMs,
        });
      }
      for (const offered of page.tools) {
        const checked = ToolSchema.safeParse(offered);
        if (checked.success) tools.push(checked.data as ServerTool);
        else {
          const name = (offered as { name?: unknown }).name;
          invalid.push({
            tool: typeof name === 'string' ? name : '(unnamed)',
            reason: `its definition is not a valid MCP tool (${zodIssues(checked.error as never)})`,
          });
        }
      }
      cursor = page.nextCursor;
      if (cursor !== undefined && cursors.has(cursor)) {
        throw new Error(
          `MCP server "${this.label}" lists its tools in a loop: it gave the page cursor ${JSON.stringify(cursor)} twice.`,
        );
      }
      if (cursor !== undefined) cursors.add(cursor);
    } while (cursor !== undefined);
    return { tools, invalid };
  }

  /**
   * Calls one tool. A server that ended, closed the connection mid-call, answered with a protocol
   * error or sent a result that is not a valid `CallToolResult` throws an Error saying so in words
   * the model can act on; an aborted call rejects with the SDK's abort.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    settings: CallSettings,
  ): Promise<CallToolResult> {
    if (this.#endedBy !== undefined) throw new Error(this.#notRunning());
    try {
      return (await this.#client.callTool({ name, arguments: args }, undefined, {
        signal: settings.signal,
        timeout: settings.timeoutMs,
        onprogress: settings.onProgress,
      })) as CallToolResult;
    } catch (error) {
      if (settings.signal?.aborted) throw error;
      if (this.#endedBy !== undefined) throw new Error(this.#notRunning(), { cause: error });
      if (isZodError(error)) {
        throw new Error(`MCP server "${this.label}" sent a malformed result: ${zodIssues(error)}`, {
          cause: error,
        });
      }
      if (error instanceof McpError) {
        throw new Error(`MCP server "${this.label}" answered with an error: ${error.message}`, {
          cause: error,
        });
      }
      throw new Error(`The call to MCP server "${this.label}" failed: ${describe(error)}`, { cause: error });
    }
  }

  /** Ends the session; for a stdio server, resolves once its process has exited. Safe to call twice. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#endedBy ??= 'close';
    // Tells an HTTP server the session is over; a server that is gone has no session to end.
    await (this.#transport as { terminateSession?: () => Promise<void> })
      .terminateSession?.()
      .catch(() => {});
    await this.#client.close();
  }

  #notRunning(): string {
    if (this.#endedBy === 'close') return `the tools of MCP server "${this.label}" were closed.`;
    const exit = this.#process?.exit;
    const what = exit === undefined ? 'it closed the connection' : `its process ${exit}`;
    return `MCP server "${this.label}" is not running: ${what}.${this.#stderrNote()}`;
  }

  #stderrNote(): string {
    const tail = this.#process?.stderrTail.trim() ?? '';
    return tail === '' ? '' : ` Its last output on stderr: ${JSON.stringify(tail.slice(-500))}`;
  }
}

async function createTransport(
  server: McpServer,
): Promise<{ transport: Transport; process?: StdioTransport }> {
  if ('command' in server) {
    // Node only, so loaded only for a stdio server: an HTTP-only user never loads child_process.
    const { StdioTransport } = await import('./stdio-transport.js');
    const process = new StdioTransport(server);
    return { transport: process, process };
  }
  const { StreamableHTTPClientTransport } = await import(
    '@modelcontextprotocol/sdk/client/streamableHttp.js'
  );
  const url = server.url instanceof URL ? server.url : new URL(server.url);
  return { transport: new StreamableHTTPClientTransport(url, { requestInit: { headers: server.headers } }) };
}

function describe(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause;
  const message = errorMessage(error);
  return cause instanceof Error && !message.includes(cause.message)
    ? `${message} (${cause.message})`
    : message;
}

function isZodError(error: unknown): error is { issues: { path: PropertyKey[]; message: string }[] } {
  return (
    typeof error === 'object' &&
    error !== null &&
    // zod's full and mini builds name it `ZodError` and `$ZodError`.
    /ZodError$/.test(String((error as { name?: unknown }).name)) &&
    Array.isArray((error as { issues?: unknown }).issues)
  );
}

function zodIssues(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues
    .slice(0, 5)
    .map(
      (issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(result)'}: ${issue.message}`,
    )
    .join('; ');
}

/** A `tools/list` page whose tools are checked one by one, not all at once. */
const lenientToolsPage = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});
