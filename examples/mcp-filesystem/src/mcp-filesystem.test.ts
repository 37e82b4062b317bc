import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type McpToolset, mcpTools, serveMcp } from '@swarm/mcp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTeam, filesystemServer, makeNotes, scriptedModels, task } from './library.js';

let dir: string;
let files: McpToolset;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-filesystem-test-'));
  await makeNotes(dir);
  files = await mcpTools(filesystemServer(dir));
});
afterEach(async () => {
  await files.close();
  await rm(dir, { recursive: true, force: true });
});

describe('an agent team on the tools of the MCP filesystem server', () => {
  it('reads the notes and writes the summary into the folder', async () => {
    const result = await buildTeam(scriptedModels(dir), files.tools, dir).run(task);

    expect(result.steps[0]!.output).toContain('bees pollinate a third of our crops');
    expect(await readFile(join(dir, 'summary.md'), 'utf8')).toContain(
      'Bees pollinate about a third of our crops.',
    );
    expect(result.output).toMatch(/^Wrote summary\.md:/);
  });

  it('served as an MCP tool, answers the SDK client what run answers', async () => {
    const direct = await buildTeam(scriptedModels(dir), files.tools, dir).run(task);
    const served = await serveMcp(buildTeam(scriptedModels(dir), files.tools, dir), {
      name: 'summarize_notes',
      description: 'Summarizes the notes.',
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    try {
      // The server's bearer token (generated, since none was given) goes with every request.
      await client.connect(
        new StreamableHTTPClientTransport(served.url, {
          requestInit: { headers: { authorization: `Bearer ${served.token}` } },
        }),
      );
      const answer = (await client.callTool({
        name: 'summarize_notes',
        arguments: { task },
      })) as CallToolResult;

      expect(answer.content).toEqual([{ type: 'text', text: direct.output }]);
    } finally {
      await client.close();
      await served.close();
    }
  });
});
