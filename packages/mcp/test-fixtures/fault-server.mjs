// A tiny MCP server over stdio, written with the SDK, whose tools misbehave on purpose: the faults a
// real server can have, one tool each. `node fault-server.mjs [--ignore-sigterm]`.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

if (process.argv.includes('--ignore-sigterm')) process.on('SIGTERM', () => {});

const noArguments = { type: 'object', properties: {} };
const tools = [
  { name: 'ok', description: 'Answers "fine".', inputSchema: noArguments },
  { name: 'exit_mid_call', description: 'Dies while answering.', inputSchema: noArguments },
  { name: 'hang', description: 'Never answers, and ignores cancellation.', inputSchema: noArguments },
  { name: 'fail', description: 'Answers with an error result.', inputSchema: noArguments },
  {
    name: 'malformed',
    description: 'Answers with content that is not MCP content.',
    inputSchema: noArguments,
  },
  {
    name: 'progress_with_answer',
    description: 'Sends its last progress notification and its answer in one write.',
    inputSchema: noArguments,
  },
  {
    name: 'huge',
    description: 'Answers with a 5 MB text.',
    inputSchema: { type: 'object', properties: { megabytes: { type: 'number' } } },
  },
];

// `--bad-schema`: one more tool, whose input schema is not an object schema (the MCP spec requires one).
if (process.argv.includes('--bad-schema')) {
  tools.push({ name: 'bad_schema', description: 'Takes a bare string.', inputSchema: { type: 'string' } });
}

const server = new Server({ name: 'fault-server', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  switch (request.params.name) {
    case 'ok':
      return { content: [{ type: 'text', text: 'fine' }] };
    case 'exit_mid_call':
      process.stderr.write('fatal: the disk went away\n');
      setTimeout(() => process.exit(3), 20);
      return new Promise(() => {});
    case 'hang':
      return new Promise(() => {
        setInterval(() => {}, 1000);
      });
    case 'fail':
      return { isError: true, content: [{ type: 'text', text: 'The quota of this key is used up.' }] };
    case 'huge': {
      const megabytes = request.params.arguments?.megabytes ?? 5;
      return { content: [{ type: 'text', text: 'x'.repeat(megabytes * 1024 * 1024) }] };
    }
    default:
      throw new Error(`no tool ${request.params.name}`);
  }
});

const transport = new StdioServerTransport();
await server.connect(transport);
// The SDK checks what a server answers and writes each message on its own, so these two answers are
// written past it, on the wire.
const receive = transport.onmessage;
transport.onmessage = (message, extra) => {
  if (message.method === 'tools/call' && message.params?.name === 'progress_with_answer') {
    const progressToken = message.params._meta?.progressToken;
    const progress = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken, progress: 1, total: 1 },
    };
    const answer = { jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'done' }] } };
    process.stdout.write(`${JSON.stringify(progress)}\n${JSON.stringify(answer)}\n`);
    return;
  }
  if (message.method === 'tools/call' && message.params?.name === 'malformed') {
    void transport.send({
      jsonrpc: '2.0',
      id: message.id,
      result: { content: [{ type: 'picture', pixels: 3 }] },
    });
    return;
  }
  receive?.(message, extra);
};
