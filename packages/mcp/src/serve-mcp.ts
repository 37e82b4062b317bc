import { randomBytes, timingSafeEqual } from 'node:crypto';
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
  /**
   * An address other than loopback is refused (ConfigError) unless this is `true`: the tool
   * spends the server's model credit, so opening it to the network is said out loud.
   */
  allowRemote?: boolean;
  /**
   * The bearer token every request must carry (`Authorization: Bearer <token>`). Not given: one is
   * generated, printed once on stderr and readable as `token`. `false` turns the check off, which
   * only a loopback server may do.
   */
  token?: string | false;
  /**
   * Origins (`http://host:port`) a browser page may call from, beside the server's own. A request
   * with any other `Origin` header is refused (403), as the MCP spec asks against DNS rebinding.
   */
  allowedOrigins?: readonly string[];
  /** A session that has had no request for this long is closed (default 30 minutes). */
  sessionIdleMs?: number;
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
  /** The bearer token clients send (`Authorization: Bearer <token>`); undefined when `token: false`. */
  readonly token: string | undefined;
  /** How many MCP sessions are open (an idle one is closed after `sessionIdleMs`). */
  readonly sessions: number;
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
  const loopback = isLoopback(host);
  if (!loopback && options.allowRemote !== true) {
    throw new ConfigError(
      `serveMcp: host ${JSON.stringify(host)} is not loopback; pass allowRemote: true to open the tool to the network.`,
    );
  }
  if (options.token !== undefined && options.token !== false) {
    if (typeof options.token !== 'string' || options.token.length < 16) {
      throw new ConfigError('serveMcp: token must be a string of at least 16 characters (or false).');
    }
  }
  if (options.token === false && !loopback) {
    throw new ConfigError('serveMcp: token: false is allowed only on a loopback host.');
  }
  if (
    options.allowedOrigins !== undefined &&
    (!Array.isArray(options.allowedOrigins) || !options.allowedOrigins.every((o) => typeof o === 'string'))
  ) {
    throw new ConfigError('serveMcp: allowedOrigins must be an array of origin strings.');
  }
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  if (typeof idleMs !== 'number' || !(idleMs > 0)) {
    throw new ConfigError(`serveMcp: sessionIdleMs must be a positive number (got ${String(idleMs)}).`);
  }
  const generated = options.token === undefined;
  const token =
    options.token === false ? undefined : (options.token ?? randomBytes(24).toString('base64url'));
  const [{ createServer }, { StreamableHTTPServerTransport }] = await Promise.all([
    import('node:http'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  ]);
  interface Session {
    transport: StreamableHTTPServerTransport;
    server: Server;
    lastSeen: number;
    inFlight: number;
  }
  const sessions = new Map<string, Session>();
  let allowedHosts: Set<string> | undefined;
  let allowedOrigins = new Set<string>(options.allowedOrigins ?? []);

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    // On loopback, a request naming another host is a web page's DNS rebinding trick: refused.
    if (allowedHosts !== undefined && !allowedHosts.has(request.headers.host ?? '')) {
      return reply(response, 403, 'This server answers only requests addressed to this machine.');
    }
    // A browser names the page that sent the request: only this server's own or an allowed one.
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin)) {
      return reply(response, 403, `Requests from the origin ${origin} are not allowed.`);
    }
    if (token !== undefined && !sameToken(request.headers.authorization, token)) {
      response.setHeader('www-authenticate', 'Bearer');
      return reply(response, 401, 'Send the server\'s token as "Authorization: Bearer <token>".');
    }
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/mcp') {
      return reply(response, 404, 'The MCP endpoint is /mcp.');
    }
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (session === undefined) return reply(response, 404, 'No such session: initialize a new one.');
      session.lastSeen = Date.now();
      // A call in progress keeps its session; the client's standing GET stream does not.
      if (request.method === 'POST') {
        session.inFlight += 1;
        response.once('close', () => {
          session.inFlight -= 1;
          session.lastSeen = Date.now();
        });
      }
      return session.transport.handleRequest(request, response);
    }
    // No session yet: a new one, kept only if this request is the client's `initialize` (for
    // anything else the transport answers 400 itself).
    const server = newServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, lastSeen: Date.now(), inFlight: 0 });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(request, response);
    if (transport.sessionId === undefined) await server.close();
  };

  // Idle sessions (no request open, none for idleMs) are closed, so a client that vanished without
  // a DELETE leaves nothing behind.
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) {
        if (session.inFlight === 0 && now - session.lastSeen >= idleMs) {
          sessions.delete(id);
          void session.server.close();
        }
      }
    },
    Math.max(10, Math.min(idleMs / 2, 60_000)),
  );
  sweep.unref();

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
  }).catch((error: unknown) => {
    clearInterval(sweep);
    throw error;
  });
  const address = http.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  if (loopback) {
    const names = ['127.0.0.1', 'localhost', '[::1]', urlHost].map((h) => `${h}:${bound}`);
    allowedHosts = new Set(names);
    allowedOrigins = new Set([...allowedOrigins, ...names.map((h) => `http://${h}`)]);
  } else {
    allowedOrigins = new Set([...allowedOrigins, `http://${urlHost}:${bound}`]);
  }
  const url = new URL(`http://${urlHost}:${bound}/mcp`);
  if (generated) {
    process.stderr.write(`serveMcp: ${url.href} takes the header "Authorization: Bearer ${token}"\n`);
  }
  let closing: Promise<void> | undefined;
  return {
    url,
    token,
    get sessions() {
      return sessions.size;
    },
    close() {
      closing ??= (async () => {
        clearInterval(sweep);
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

/** Compares a request's `Authorization` header with the token in constant time. */
function sameToken(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1] as string);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function reply(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
