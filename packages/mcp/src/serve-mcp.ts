import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ConfigError, type Member } from '@swarm/core';
import type { z } from 'zod';
import { checkServeOptions, createMcpServer, type McpServeOptions } from './mcp-server.js';

/** Served over streamable HTTP (the default): where, on this machine. */
export interface McpHttpServeOptions {
  transport?: 'http';
  /** Default `127.0.0.1`: only this machine can call. Another address opens the tool to the network. */
  host?: string;
  /** Default 0: any free port (read it from `url`). */
  port?: number;
}

/**
 * Served over this process's stdin and stdout, as desktop MCP clients start a server (Node only).
 * Nothing else may write to stdout meanwhile: log to stderr.
 */
export interface McpStdioServeOptions {
  transport: 'stdio';
}

/** A running streamable HTTP server. */
export interface McpHttpServing {
  /** The MCP endpoint to give clients, `http://127.0.0.1:<port>/mcp`. */
  readonly url: URL;
  /** Stops accepting calls, aborts the runs in progress and closes every session and connection. */
  close(): Promise<void>;
}

/** A server running on stdio. */
export interface McpStdioServing {
  /** Resolves when the client has gone (its end of stdin closed) or `close()` was called. */
  readonly closed: Promise<void>;
  /** Aborts the run in progress, if any, and stops reading stdin. */
  close(): Promise<void>;
}

/**
 * Serves a topology or an agent as one MCP tool, so any MCP client (a desktop assistant, an IDE, an
 * agent SDK) can call the whole swarm: over streamable HTTP on 127.0.0.1 by default, or over stdio
 * with `transport: 'stdio'` (what a client that starts the server as a command needs). Each call is
 * one run with the options' budget; its events reach the client as progress and log messages, and
 * a cancellation from the client aborts it.
 */
export function serveMcp<P extends z.ZodObject>(
  runnable: Member,
  options: McpServeOptions<P> & McpStdioServeOptions,
): Promise<McpStdioServing>;
export function serveMcp<P extends z.ZodObject>(
  runnable: Member,
  options: McpServeOptions<P> & McpHttpServeOptions,
): Promise<McpHttpServing>;
export function serveMcp<P extends z.ZodObject>(
  runnable: Member,
  options: McpServeOptions<P> & (McpHttpServeOptions | McpStdioServeOptions),
): Promise<McpHttpServing | McpStdioServing> {
  try {
    // Checked now, so a mistake fails here and not at the first client.
    checkServeOptions(runnable, options);
    if (options.transport === 'stdio') return serveStdio(() => createMcpServer(runnable, options));
    if (options.transport !== undefined && options.transport !== 'http') {
      throw new ConfigError(
        `serveMcp: transport must be 'http' or 'stdio' (got ${JSON.stringify(options.transport)}).`,
      );
    }
    return serveHttp(() => createMcpServer(runnable, options), options);
  } catch (error) {
    return Promise.reject(error);
  }
}

async function serveStdio(newServer: () => Server): Promise<McpStdioServing> {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { stdin } = process;
  const server = newServer();
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  // The SDK's stdio transport does not watch for the end of its input, nor for a write to a client
  // that has gone (EPIPE): either ends the server, or its run would go on for nobody.
  const ended = () => void server.close();
  stdin.once('end', ended);
  process.stdout.once('error', ended);
  void closed.then(() => {
    stdin.off('end', ended);
    process.stdout.off('error', ended);
  });
  await server.connect(new StdioServerTransport(stdin, process.stdout));
  return {
    closed,
    async close() {
      await server.close();
    },
  };
}

async function serveHttp(newServer: () => Server, options: McpHttpServeOptions): Promise<McpHttpServing> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  if (typeof host !== 'string' || host === '')
    throw new ConfigError('serveMcp: host must be a non-empty string.');
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new ConfigError(`serveMcp: port must be an integer from 0 to 65535 (got ${port}).`);
  }
  const [{ createServer }, { StreamableHTTPServerTransport }] = await Promise.all([
    import('node:http'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  ]);
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();
  let allowedHosts: Set<string> | undefined;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    // On loopback, a request naming another host is a web page's DNS rebinding trick: refused.
    if (allowedHosts !== undefined && !allowedHosts.has(request.headers.host ?? '')) {
      return reply(response, 403, 'This server answers only requests addressed to this machine.');
    }
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/mcp') {
      return reply(response, 404, 'The MCP endpoint is /mcp.');
    }
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (session === undefined) return reply(response, 404, 'No such session: initialize a new one.');
      return session.transport.handleRequest(request, response);
    }
    // No session yet: a new one, kept only if this request is the client's `initialize` (for
    // anything else the transport answers 400 itself).
    const server = newServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response);
    if (transport.sessionId === undefined) await server.close();
  };

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) reply(response, 500, `Internal error: ${String(error)}`);
      else response.destroy(error instanceof Error ? error : undefined);
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  if (isLoopback(host)) {
    allowedHosts = new Set(['127.0.0.1', 'localhost', '[::1]', urlHost].map((h) => `${h}:${bound}`));
  }
  let closing: Promise<void> | undefined;
  return {
    url: new URL(`http://${urlHost}:${bound}/mcp`),
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
        // Closing a session's server aborts its runs in progress and ends its open streams.
        await Promise.all([...sessions.values()].map(({ server }) => server.close()));
        http.closeAllConnections();
        await stopped;
      })();
      return closing;
    },
  };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function reply(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
