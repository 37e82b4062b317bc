// MCP both ways. First, an agent team uses the tools of a real MCP server: a librarian reads notes
// and a writer writes a summary, through `@modelcontextprotocol/server-filesystem` on a temp folder.
// Then the same team is served as one MCP tool (`serveMcp`, streamable HTTP on 127.0.0.1) and the
// MCP SDK's own Client calls it, as a desktop assistant or an IDE would, watching its progress.
// With a model configured (SWARM_MODEL, OPENAI_API_KEY or ANTHROPIC_API_KEY) the agents are real;
// without one, scripted agents make the calls a model would.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { configuredModel, configureModelHint } from '@swarm/core';
import { mcpTools, serveMcp } from '@swarm/mcp';
import {
  buildTeam,
  filesystemServer,
  type LibraryModels,
  makeNotes,
  scriptedModels,
  task,
} from './library.js';

const model = configuredModel();
const modelsFor = (dir: string): LibraryModels =>
  model ? { librarian: model, writer: model } : scriptedModels(dir);
if (!model) {
  console.log('No model configured: scripted agents make the calls a model would.');
  console.log(`To run it for real: ${configureModelHint}\n`);
}

const dir = await mkdtemp(join(tmpdir(), 'mcp-filesystem-'));
const files = await mcpTools(filesystemServer(dir));
try {
  await makeNotes(dir);
  console.log(
    `1. A team using the ${files.tools.length} tools of MCP server "${files.servers[0]?.name}" on ${dir}`,
  );
  const team = buildTeam(modelsFor(dir), files.tools, dir);
  const result = await team.run(task, {
    budget: { maxCalls: 20 },
    onEvent: (e) => {
      if (e.type === 'tool.call') console.log(`   ${e.agent} calls ${e.tool} ${JSON.stringify(e.arguments)}`);
    },
  });
  console.log(`   Answer (${result.llmCalls} model calls):\n${indent(result.output)}`);
  console.log(`   summary.md on disk:\n${indent(await readFile(join(dir, 'summary.md'), 'utf8'))}\n`);

  console.log("2. The same team served as one MCP tool, called by the MCP SDK's own Client");
  const served = await serveMcp(buildTeam(modelsFor(dir), files.tools, dir), {
    name: 'summarize_notes',
    description: 'A librarian and a writer summarize the notes in a folder into summary.md.',
    budget: { maxCalls: 20 },
  });
  const client = new Client({ name: 'example-client', version: '1.0.0' });
  try {
    // The server's bearer token (generated, since none was given) goes with every request.
    await client.connect(
      new StreamableHTTPClientTransport(served.url, {
        requestInit: { headers: { authorization: `Bearer ${served.token}` } },
      }),
    );
    const { tools } = await client.listTools();
    console.log(`   ${served.url} offers: ${tools.map((t) => t.name).join(', ')}`);
    const answer = (await client.callTool({ name: 'summarize_notes', arguments: { task } }, undefined, {
      onprogress: (p) => console.log(`   progress ${p.progress}: ${p.message}`),
    })) as CallToolResult;
    const text = answer.content.find((c) => c.type === 'text');
    console.log(`   The client got:\n${indent(text?.type === 'text' ? text.text : '(no text)')}`);
  } finally {
    await client.close();
    await served.close();
  }
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await files.close();
  await rm(dir, { recursive: true, force: true });
}

function indent(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => `     ${line}`)
    .join('\n');
}
