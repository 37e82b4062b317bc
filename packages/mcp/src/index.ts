export { createMcpServer, type McpServeOptions } from './mcp-server.js';
export { type McpToolset, mcpTools } from './mcp-tools.js';
export type { McpServerOptions, McpServers, McpToolsOptions } from './mcp-tools-options.js';
export {
  type McpHttpServeOptions,
  type McpHttpServing,
  type McpStdioServeOptions,
  type McpStdioServing,
  serveMcp,
} from './serve-mcp.js';
export type { McpHttpServer, McpServer, McpStdioServer } from './server-connection.js';
