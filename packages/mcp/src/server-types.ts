// Where an MCP server is: types only, shared by the connection and the stdio transport (no import circle).

/** An MCP server that swarm starts as a child process and speaks to over its stdin and stdout (Node only). */
export interface McpStdioServer {
  command: string;
  args?: string[];
  /** Added to the few variables the server inherits (`HOME`, `PATH`, `USER`, ...); the rest of this process's environment is not passed on. */
  env?: Record<string, string>;
  cwd?: string;
}

/** An MCP server that is already running, reached over streamable HTTP. */
export interface McpHttpServer {
  url: string | URL;
  /** Sent with every request (an `Authorization` header, say). */
  headers?: Record<string, string>;
}

/** Where an MCP server is: a command to start, or the URL of a running one. */
export type McpServer = McpStdioServer | McpHttpServer;
