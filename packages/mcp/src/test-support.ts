import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { McpStdioServer } from './server-connection.js';

// Helpers shared by this package's tests: real MCP servers started with this repository's Node
// (`process.execPath`), and checks that a server process is really gone.

const packageDir = new URL('../', import.meta.url);

/** A stdio server from an npm package (a devDependency), started by its `bin` with this Node. */
export function packageServer(name: string, ...args: string[]): McpStdioServer {
  const dir = new URL(`node_modules/${name}/`, packageDir);
  const manifest = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as {
    bin: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0]!;
  return { command: process.execPath, args: [fileURLToPath(new URL(bin, dir)), ...args] };
}

/** `@modelcontextprotocol/server-everything`: the protocol's reference server, every feature. */
export function everythingServer(): McpStdioServer {
  return packageServer('@modelcontextprotocol/server-everything', 'stdio');
}

/** `@modelcontextprotocol/server-filesystem`, allowed to touch `dir` only. */
export function filesystemServer(dir: string): McpStdioServer {
  return packageServer('@modelcontextprotocol/server-filesystem', dir);
}

/** This package's server whose tools misbehave on purpose (test-fixtures/fault-server.mjs). */
export function faultServer(...flags: string[]): McpStdioServer {
  const script = fileURLToPath(new URL('test-fixtures/fault-server.mjs', packageDir));
  return { command: process.execPath, args: [script, ...flags] };
}

/**
 * The pids of this process's children, zombies included (Linux: read from /proc): a test compares
 * them before and after to see that nothing it started was left behind.
 */
export function childProcesses(): Set<number> {
  const children = new Set<number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // it exited while the list was read
    }
    // "pid (command) state ppid ...": the command may hold spaces and parentheses.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === process.pid) children.add(Number(entry));
  }
  return children;
}

/** The children started since `before` that are still there (running or zombie). */
export function newChildren(before: Set<number>): number[] {
  return [...childProcesses()].filter((pid) => !before.has(pid));
}
