// An agent served over stdio, as `swarm mcp` will serve a spec: a desktop client starts this file
// as a command. Its scripted model answers each task by saying it back, after one tool call.
// Run with `node --import tsx test-fixtures/serve-stdio.ts`.
import { Agent, tool } from '@swarm/core';
import { ScriptedModel } from '@swarm/core/testing';
import { z } from 'zod';
import { serveMcp } from '../src/index.js';

const clock = tool({
  name: 'clock',
  description: 'The time.',
  parameters: z.object({}),
  execute: () => '12:00',
});
const model = new ScriptedModel([], {
  fallback: {
    kind: 'respond',
    fn: (request) =>
      request.messages.at(-1)?.role === 'tool'
        ? { text: `At ${request.messages.at(-1)?.content}: ${request.messages[0]?.content}` }
        : { text: '', toolCalls: [{ name: 'clock', arguments: {} }] },
  },
});
const agent = new Agent({ name: 'announcer', model, tools: [clock] });

const serving = await serveMcp(agent, {
  name: 'announce',
  description: 'Announces a message with the time.',
  transport: 'stdio',
});
await serving.closed;
process.stderr.write('served: the client has gone\n');
