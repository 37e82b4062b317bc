import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fnv1a } from '@swarm/core';
import {
  goneWithin,
  type MockProviderServer,
  type MockRequest,
  mockProviderServer,
} from '@swarm/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specsDir, swarm, swarmBin } from './swarm-process.js';

// `swarm mcp <spec>` as a desktop MCP client runs it: the SDK's own Client starts the built command
// over stdio, lists its tool and calls it; the models are the real OpenAI SDK against a loopback mock.

let server: MockProviderServer;
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), 'swarm-cli-mcp-'));

beforeAll(async () => {
  // Each answer is a function of the request alone, so two processes asking the same get the same.
  server = await mockProviderServer({
    handler: (request: MockRequest) => {
      const messages = request.body.messages as { content?: unknown }[];
      return { text: `answer ${fnv1a(JSON.stringify(messages)).toString(16)}` };
    },
  });
  env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    SWARM_MODEL: 'openai:mock-model',
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: server.openaiBaseURL,
  };
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('swarm mcp', () => {
  it('serves a spec as one tool that answers what swarm run answers, and ends when the client goes', async () => {
    const spec = join(specsDir, 'sequential-workflow.yaml');
    const task = 'Explain what a semaphore is in one sentence.';
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [swarmBin, 'mcp', spec],
      env,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const client = new Client({ name: 'desktop', version: '1.0.0' });
    await client.connect(transport);
    const pid = transport.pid!;

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['Draft_and_edit', 'resume']);
    expect(tools[0]!.description).toContain('SequentialWorkflow');
    expect(tools[0]!.inputSchema).toMatchObject({ properties: { task: { type: 'string' } } });

    const result = (await client.callTool({ name: 'Draft_and_edit', arguments: { task } })) as CallToolResult;
    const ran = await swarm(['run', spec, task, '--json', '--quiet'], env);
    expect(ran.code).toBe(0);
    const expected = (JSON.parse(ran.stdout) as { output: string }).output;
    expect(expected.length).toBeGreaterThan(0);
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: expected }]);
    expect(result.structuredContent).toMatchObject({ output: expected, llmCalls: 2 });

    await client.close();
    expect(await goneWithin(pid, 5_000)).toBe(true);
    expect(stderr).toContain('serving');
  }, 60_000);

  it('reports every problem of a bad spec at its line, exit 2, before serving anything', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'topology: NoSuchTopology\nagents:\n  - name: a\n    tools: [no_such_tool]\n');
    const ran = await swarm(['mcp', bad], env);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toMatch(new RegExp(`${bad}:1:\\d+: topology`));
    expect(ran.stderr).toMatch(new RegExp(`${bad}:4:\\d+: .*no_such_tool`));
  });

  it('takes exactly one spec, and refuses options of other commands', async () => {
    const none = await swarm(['mcp'], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('swarm mcp takes one spec file');
    const report = await swarm(['mcp', join(specsDir, 'forest.yaml'), '--report', 'r.html'], env);
    expect(report.code).toBe(2);
    expect(report.stderr).toContain('--report is not an option of swarm mcp');
  });

  it("sends a spec's attachments with every call, and refuses one outside the spec's folder", async () => {
    const specDir = mkdtempSync(join(tmpdir(), 'swarm-mcp-attach-'));
    writeFileSync(join(specDir, 'chart.png'), Uint8Array.from([0x89, 0x50, 0x4e, 0x47]));
    const spec = join(specDir, 'reader.yaml');
    writeFileSync(
      spec,
      'name: Reader\ntopology: SequentialWorkflow\nagents:\n  - name: reader\nattachments:\n  - chart.png\n',
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [swarmBin, 'mcp', spec],
      env,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'desktop', version: '1.0.0' });
    await client.connect(transport);
    const before = server.requests.length;
    const result = (await client.callTool({
      name: 'Reader',
      arguments: { task: 'What is it?' },
    })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const sent = server.requests[before]!.body.messages as { role: string; content: unknown }[];
    expect(sent.find((m) => m.role === 'user')!.content).toEqual([
      { type: 'text', text: 'What is it?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } },
    ]);
    await client.close();

    const outside = join(specDir, 'outside.yaml');
    writeFileSync(
      outside,
      'name: Reader\ntopology: SequentialWorkflow\nagents:\n  - name: reader\nattachments:\n  - /etc/hostname\n',
    );
    const refused = await swarm(['mcp', outside], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("attachments: /etc/hostname: outside the spec's folder");
    rmSync(specDir, { recursive: true, force: true });
  }, 60_000);
});
