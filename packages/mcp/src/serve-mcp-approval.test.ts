import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Agent } from '@swarm/core';
import { refundDesk, ScriptedModel, toolCall } from '@swarm/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type McpHttpServing, serveMcp } from './index.js';

// A served swarm whose run pauses for a person's approval, reached by the MCP SDK's own Client: a
// client without elicitation gets a structured, non-error result listing what waits and resumes it
// with the `resume` tool; a client with elicitation is asked in the call itself.

const token = 'approval-test-token-0123456789';
const serving: McpHttpServing[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(serving.splice(0).map((s) => s.close()));
});

async function connect(
  runnable: Parameters<typeof serveMcp>[0],
  options: {
    elicit?: (message: string) => { action: 'accept' | 'decline'; content?: Record<string, unknown> };
  } = {},
) {
  const server = (await serveMcp(runnable, {
    name: 'desk',
    description: 'A help desk.',
    token,
  })) as McpHttpServing;
  serving.push(server);
  const client = new Client(
    { name: 'ide', version: '1.0.0' },
    options.elicit ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (options.elicit) {
    const elicit = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params.message));
  }
  await client.connect(
    new StreamableHTTPClientTransport(server.url, {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

const callTool = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

describe('a served run that pauses for approval', () => {
  it('is a structured, non-error result listing what waits; resume with an approval finishes it, the call made once', async () => {
    const { agent, refunds } = refundDesk();
    const client = await connect(agent);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['desk', 'resume']);

    const paused = await callTool(client, 'desk', { task: 'Refund order A-17.' });
    expect(paused.isError).toBeFalsy();
    const structured = paused.structuredContent as {
      paused: boolean;
      runId: string;
      pending: { id: string }[];
    };
    expect(structured).toMatchObject({
      paused: true,
      runId: expect.any(String),
      pending: [{ id: expect.any(String), agent: 'clerk', tool: 'refund', arguments: { order: 'A-17' } }],
    });
    expect((paused.content[0] as { text: string }).text).toContain('call "resume"');
    expect(refunds).toEqual([]);

    const done = await callTool(client, 'resume', {
      runId: structured.runId,
      decisions: [{ id: structured.pending[0]!.id, approved: true }],
    });
    expect(done.isError).toBeFalsy();
    expect(done.content).toEqual([{ type: 'text', text: 'Done: order A-17 is refunded.' }]);
    expect(refunds).toEqual(['A-17']);

    // A run that was resumed is gone: resuming it again says so.
    const again = await callTool(client, 'resume', {
      runId: structured.runId,
      decisions: [{ id: structured.pending[0]!.id, approved: true }],
    });
    expect(again.isError).toBe(true);
    expect(refunds).toEqual(['A-17']);
  });

  it('a rejection never reaches the tool: the model reads the reason', async () => {
    const { agent, refunds, model } = refundDesk();
    const client = await connect(agent);
    const paused = (await callTool(client, 'desk', { task: 'Refund order A-17.' })).structuredContent as {
      runId: string;
      pending: { id: string }[];
    };
    const done = await callTool(client, 'resume', {
      runId: paused.runId,
      decisions: [{ id: paused.pending[0]!.id, approved: false, reason: 'Not without a receipt.' }],
    });
    expect(done.isError).toBeFalsy();
    expect(done.content).toEqual([{ type: 'text', text: 'The refund of A-17 was not made.' }]);
    expect(refunds).toEqual([]);
    expect(JSON.stringify(model.lastCall?.messages)).toContain('Not without a receipt.');
  });

  it('a decision for a call the run does not wait for is an error result naming what waits', async () => {
    const { agent } = refundDesk();
    const client = await connect(agent);
    const paused = (await callTool(client, 'desk', { task: 'Refund order A-17.' })).structuredContent as {
      runId: string;
      pending: { id: string }[];
    };
    const wrong = await callTool(client, 'resume', {
      runId: paused.runId,
      decisions: [{ id: 'nope', approved: true }],
    });
    expect(wrong.isError).toBe(true);
    expect((wrong.content[0] as { text: string }).text).toContain(paused.pending[0]!.id);
  });

  it('a client that supports elicitation is asked in the call, and gets the answer in one call', async () => {
    const { agent, refunds } = refundDesk();
    const asked: string[] = [];
    const client = await connect(agent, {
      elicit: (message) => {
        asked.push(message);
        return { action: 'accept', content: { approve: true } };
      },
    });
    const done = await callTool(client, 'desk', { task: 'Refund order A-17.' });
    expect(done.isError).toBeFalsy();
    expect(done.content).toEqual([{ type: 'text', text: 'Done: order A-17 is refunded.' }]);
    expect(asked).toEqual([expect.stringContaining('"refund" by agent "clerk" with {"order":"A-17"}')]);
    expect(refunds).toEqual(['A-17']);
  });

  it('a client whose user declines the elicitation gets the paused result, to resume later', async () => {
    const { agent, refunds } = refundDesk();
    const client = await connect(agent, { elicit: () => ({ action: 'decline' }) });
    const paused = await callTool(client, 'desk', { task: 'Refund order A-17.' });
    expect(paused.isError).toBeFalsy();
    expect(paused.structuredContent).toMatchObject({ paused: true });
    expect(refunds).toEqual([]);
  });
});

describe('a typed answer', () => {
  it('is finalOutput in structuredContent, announced by the outputSchema', async () => {
    const Verdict = z.object({ approved: z.boolean(), reason: z.string() });
    const agent = new Agent({
      name: 'judge',
      model: new ScriptedModel([toolCall('final_output', { approved: true, reason: 'fits' })]),
      outputType: Verdict,
    });
    const client = await connect(agent);
    const { tools } = await client.listTools();
    expect(tools[0]!.outputSchema).toMatchObject({
      properties: { finalOutput: { type: 'object', properties: { approved: { type: 'boolean' } } } },
    });
    const done = await callTool(client, 'desk', { task: 'Judge.' });
    expect(done.structuredContent).toMatchObject({ finalOutput: { approved: true, reason: 'fits' } });
  });
});
