// How long a 5 MB tool result takes to arrive over stdio, and the longest the client's event loop
// is blocked meanwhile (every other branch of a run waits that long): through the SDK's
// StdioClientTransport and through this package's StdioTransport, from the same fault server in
// the same run. Prints the times and their ratios. `pnpm --filter @swarm/mcp bench`.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { StdioTransport } from '../src/stdio-transport.js';

const server = {
  command: process.execPath,
  args: [fileURLToPath(new URL('../test-fixtures/fault-server.mjs', import.meta.url))],
};
const rounds = 3;

async function measure(transport: () => Transport): Promise<{ total: number; stall: number }> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport());
  let total = Number.POSITIVE_INFINITY;
  let stall = Number.POSITIVE_INFINITY;
  for (let i = 0; i < rounds; i++) {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    await client.callTool({ name: 'huge', arguments: { megabytes: 5 } });
    total = Math.min(total, performance.now() - started);
    delay.disable();
    stall = Math.min(stall, delay.max / 1e6);
  }
  await client.close();
  return { total, stall };
}

const sdk = await measure(() => new StdioClientTransport({ ...server, stderr: 'ignore' }));
const ours = await measure(() => new StdioTransport(server));
const row = (name: string, m: { total: number; stall: number }) =>
  console.log(
    `  ${name.padEnd(26)} ${m.total.toFixed(0).padStart(6)} ms  ${m.stall.toFixed(0).padStart(6)} ms`,
  );
console.log(`5 MB tool result over stdio, best of ${rounds}:    total  longest stall`);
row('SDK StdioClientTransport', sdk);
row('@swarm/mcp StdioTransport', ours);
console.log(
  `  ratio (SDK / ours): total ${(sdk.total / ours.total).toFixed(1)}x, stall ${(sdk.stall / ours.stall).toFixed(1)}x` +
    " (the server's own time to build and send the result is in both totals)",
);
