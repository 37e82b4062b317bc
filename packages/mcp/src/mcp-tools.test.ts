import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  Agent,
  ConfigError,
  memoryJournal,
  RunPausedError,
  type SwarmEvent,
  toolDefinition,
} from '@swarm/core';
import { goneWithin, processGone, reply, ScriptedModel, toolCall } from '@swarm/core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type McpToolset, mcpTools } from './index.js';
import { childProcesses, everythingServer, filesystemServer, newChildren } from './test-support.js';

// The tools of real MCP servers from the npm registry (the reference "everything" server and the
// filesystem server), started over stdio by the tests, driven by an Agent whose scripted model
// calls them as a real model would.

let dir: string;
const open: McpToolset[] = [];
const connect = async (...args: Parameters<typeof mcpTools>) => {
  const toolset = await mcpTools(...args);
  open.push(toolset);
  return toolset;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'swarm-mcp-'));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('tools of a server', () => {
  // One server of each kind for these tests: they only call tools.
  let files: McpToolset;
  let everything: McpToolset;
  beforeAll(async () => {
    [files, everything] = await Promise.all([mcpTools(filesystemServer(dir)), mcpTools(everythingServer())]);
  });
  afterAll(async () => {
    await Promise.all([files?.close(), everything?.close()]);
  });

  it("sends the model each tool's JSON Schema exactly as the server wrote it", async () => {
    const { tools } = files;
    // What the server says, asked with the SDK's own client.
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StdioClientTransport({ ...filesystemServer(dir), stderr: 'ignore' }));
    const listed = (await client.listTools()).tools;
    await client.close();

    expect(tools.map((t) => t.name)).toEqual(listed.map((t) => t.name));
    for (const served of listed) {
      const { $schema: _dialect, ...schema } = served.inputSchema as Record<string, unknown>;
      const definition = toolDefinition(tools.find((t) => t.name === served.name)!);
      expect(definition.parameters).toEqual(schema);
      expect(definition.description).toBe(served.description);
    }
    // A schema zod could not say as it is: nested arrays of objects with their own descriptions.
    const edit = toolDefinition(tools.find((t) => t.name === 'edit_file')!).parameters;
    expect(edit).toMatchObject({ properties: { edits: { type: 'array', items: { type: 'object' } } } });
  });

  it('an agent calls get-sum and answers with what the server computed', async () => {
    const { tools } = everything;
    const model = new ScriptedModel([toolCall('get-sum', { a: 2, b: 3 }), reply('2 + 3 = 5.')]);
    const result = await new Agent({ name: 'calculator', model, tools }).run('What is 2 + 3?');

    expect(result.output).toBe('2 + 3 = 5.');
    expect(result.toolCalls).toMatchObject([{ result: 'The sum of 2 and 3 is 5.', isError: false }]);
    expect(model.calls[1]!.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: 'The sum of 2 and 3 is 5.',
    });
  });

  it('arguments that break the schema go back to the model and never reach the server', async () => {
    const { tools } = files;
    const target = join(dir, 'never.txt');
    const model = new ScriptedModel([
      toolCall('write_file', { path: target }),
      reply('I could not write it.'),
    ]);
    const result = await new Agent({ name: 'writer', model, tools }).run('Write never.txt');

    expect(result.toolCalls[0]).toMatchObject({ isError: true });
    expect(result.toolCalls[0]!.result).toMatch(/^Invalid arguments: .*content/);
    expect(result.output).toBe('I could not write it.');
    expect(existsSync(target)).toBe(false);
  });

  it("a server's error result is a tool error the model sees, and the run goes on", async () => {
    const { tools } = files;
    const model = new ScriptedModel([
      toolCall('read_text_file', { path: '/etc/hostname' }),
      reply('That file is outside the folder I may read.'),
    ]);
    const result = await new Agent({ name: 'reader', model, tools }).run('Read /etc/hostname');

    expect(result.toolCalls[0]).toMatchObject({ isError: true });
    expect(result.toolCalls[0]!.result).toMatch(/^Error: .*(denied|outside)/i);
    expect(result.output).toBe('That file is outside the folder I may read.');
  });

  it('reads and writes files in the folder it was given', async () => {
    await writeFile(join(dir, 'notes.txt'), 'bees pollinate crops');
    const { tools } = files;
    const model = new ScriptedModel([
      toolCall('read_text_file', { path: join(dir, 'notes.txt') }),
      toolCall('write_file', { path: join(dir, 'summary.txt'), content: 'Bees matter.' }),
      reply('Done.'),
    ]);
    const result = await new Agent({ name: 'summarizer', model, tools }).run('Summarize notes.txt');

    expect(result.toolCalls.map((c) => c.result)).toEqual([
      'bees pollinate crops',
      expect.stringContaining('Successfully wrote'),
    ]);
    expect(await readFile(join(dir, 'summary.txt'), 'utf8')).toBe('Bees matter.');
  });

  it('images and embedded resources become text the model can read', async () => {
    const { tools } = everything;
    const model = new ScriptedModel([
      toolCall('get-tiny-image', {}),
      toolCall('get-resource-reference', { resourceType: 'Text', resourceId: 1 }),
      reply('ok'),
    ]);
    const result = await new Agent({ name: 'viewer', model, tools }).run('Show me');

    expect(result.toolCalls[0]!.result).toMatch(/\[image image\/png, \d+ bytes, not shown\]/);
    expect(result.toolCalls[1]!.result).toMatch(/\[resource [a-z]+:\/\/\S+\]\n\S/);
  });

  it("the server's progress notifications are events of the run", async () => {
    const { tools } = everything;
    const events: SwarmEvent[] = [];
    const model = new ScriptedModel([
      toolCall('trigger-long-running-operation', { duration: 0.2, steps: 2 }, { id: 'call-1' }),
      reply('Finished.'),
    ]);
    await new Agent({ name: 'worker', model, tools }).run('Run it', { onEvent: (e) => events.push(e) });

    const progress = events.filter((e) => e.type === 'mcp.progress');
    expect(progress.map((e) => [e.progress, e.total])).toEqual([
      [1, 2],
      [2, 2],
    ]);
    expect(progress[0]).toMatchObject({
      agent: 'worker',
      tool: 'trigger-long-running-operation',
      toolCallId: 'call-1',
      server: 'mcp-servers/everything',
    });
  });
});

describe('choosing tools', () => {
  it('include and exclude pick tools by their server names', async () => {
    const only = await connect(everythingServer(), { include: ['echo', 'get-sum'] });
    const without = await connect(everythingServer(), { exclude: ['echo'] });

    expect(only.tools.map((t) => t.name)).toEqual(['echo', 'get-sum']);
    expect(without.tools.map((t) => t.name)).not.toContain('echo');
    expect(without.tools.map((t) => t.name)).toContain('get-sum');
  });

  it('a name the server does not offer is a ConfigError listing what it offers, and the server is ended', async () => {
    const before = childProcesses();
    const error = await mcpTools(everythingServer(), { include: ['ecco'] }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      /include names "ecco", which MCP server "mcp-servers\/everything" does not offer\. It offers: echo, /,
    );
    expect(newChildren(before)).toEqual([]);
  });

  it('sets aside the tools that run only as MCP tasks, and says so', async () => {
    const { tools, skipped } = await connect(everythingServer());

    expect(tools.map((t) => t.name)).not.toContain('simulate-research-query');
    expect(skipped).toEqual([
      {
        server: 'mcp-servers/everything',
        tool: 'simulate-research-query',
        reason: 'it runs only as an MCP task, which swarm does not call',
      },
    ]);
    await expect(mcpTools(everythingServer(), { include: ['simulate-research-query'] })).rejects.toThrow(
      /cannot be included: it runs only as an MCP task/,
    );
  });

  it('a prefix keeps the model names apart while calls go out under the server names', async () => {
    const { tools } = await connect(everythingServer(), { prefix: 'ev_', include: ['get-sum'] });
    const model = new ScriptedModel([toolCall('ev_get-sum', { a: 1, b: 1 }), reply('2')]);
    const result = await new Agent({ name: 'a', model, tools }).run('1 + 1');

    expect(tools.map((t) => t.name)).toEqual(['ev_get-sum']);
    expect(result.toolCalls[0]!.result).toBe('The sum of 1 and 1 is 2.');
  });
});

describe('several servers', () => {
  it('connects servers by name, each with its own options', async () => {
    const { tools, servers } = await connect({
      files: { ...filesystemServer(dir), include: ['list_allowed_directories'] },
      everything: { ...everythingServer(), include: ['echo'] },
    });

    expect(tools.map((t) => t.name)).toEqual(['list_allowed_directories', 'echo']);
    expect(servers.map((s) => s.name)).toEqual(['files', 'everything']);
  });

  it('a tool name offered by two servers is a ConfigError naming both, and both servers are ended', async () => {
    const before = childProcesses();
    const error = await mcpTools({
      first: { ...everythingServer(), include: ['echo', 'get-sum'] },
      second: { ...everythingServer(), include: ['echo'] },
    }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      'mcpTools: the tool "echo" is offered by MCP server "first" and by MCP server "second". Exclude it from one of them, or give one a prefix (prefix: "second_").',
    );
    expect(newChildren(before)).toEqual([]);
  });

  it('the same clash resolved with a prefix', async () => {
    const { tools } = await connect({
      first: { ...everythingServer(), include: ['echo'] },
      second: { ...everythingServer(), include: ['echo'], prefix: 'second_' },
    });

    expect(tools.map((t) => t.name)).toEqual(['echo', 'second_echo']);
  });

  it('tools of two separate mcpTools with one name are refused by the Agent at once', async () => {
    const one = await connect(everythingServer(), { include: ['echo'] });
    const two = await connect(everythingServer(), { include: ['echo'] });

    expect(
      () => new Agent({ name: 'a', model: new ScriptedModel([]), tools: [...one.tools, ...two.tools] }),
    ).toThrow(ConfigError);
  });

  it('one server that cannot start ends the others too', async () => {
    const before = childProcesses();
    const error = await mcpTools({
      good: everythingServer(),
      bad: { command: process.execPath, args: ['-e', 'console.error("no config file"); process.exit(2)'] },
    }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^MCP server "bad" could not be started: .*no config file/);
    expect(newChildren(before)).toEqual([]);
  });
});

describe('ending the servers', () => {
  it('close() ends the server process, leaving no zombie, and later calls are tool errors', async () => {
    const toolset = await mcpTools(everythingServer(), { include: ['echo'] });
    const pid = toolset.servers[0]!.pid!;
    expect(processGone(pid)).toBe(false);

    await toolset.close();
    expect(processGone(pid)).toBe(true);
    await toolset.close(); // twice is fine

    const model = new ScriptedModel([toolCall('echo', { message: 'hi' }), reply('It is closed.')]);
    const result = await new Agent({ name: 'a', model, tools: toolset.tools }).run('Echo hi');
    expect(result.toolCalls[0]).toMatchObject({
      isError: true,
      result: 'Error: the tools of MCP server "mcp-servers/everything" were closed.',
    });
  });

  it('an abort of the signal it was given ends the server', async () => {
    const controller = new AbortController();
    const toolset = await connect(everythingServer(), { signal: controller.signal });
    const pid = toolset.servers[0]!.pid!;

    controller.abort();
    expect(await goneWithin(pid, 5_000)).toBe(true);
  });

  it('a command that does not exist is a ConfigError', async () => {
    await expect(mcpTools({ command: join(dir, 'no-such-server') })).rejects.toThrow(
      /^MCP server ".*no-such-server" could not be started: .*ENOENT/,
    );
  });

  it('a server that cannot be reached over HTTP is a ConfigError', async () => {
    await expect(mcpTools({ url: 'http://127.0.0.1:9/mcp' }, { timeoutMs: 2_000 })).rejects.toThrow(
      /^MCP server "http:\/\/127\.0\.0\.1:9\/mcp" could not be reached: /,
    );
  });
});

describe('needsApproval', () => {
  it('pauses the run before a write goes to the server, and the approved call writes once on resume', async () => {
    const target = join(dir, 'approved.txt');
    const asked: string[] = [];
    const toolset = await connect(filesystemServer(dir), {
      // Reads run unasked; anything else waits for a person.
      needsApproval: (_args, context) => {
        asked.push(context.tool);
        return !context.tool.startsWith('read_');
      },
    });
    const script = () =>
      new ScriptedModel([
        toolCall('read_text_file', { path: join(dir, 'notes.txt') }),
        toolCall('write_file', { path: target, content: 'Approved.' }),
        reply('Written.'),
      ]);
    await writeFile(join(dir, 'notes.txt'), 'write it');
    const journal = memoryJournal();
    const agent = (model: ScriptedModel) => new Agent({ name: 'writer', model, tools: toolset.tools });

    const pause = await agent(script())
      .run('Write approved.txt', { journal, runId: 'mcp-approval' })
      .catch((e: unknown) => e);
    expect(pause).toBeInstanceOf(RunPausedError);
    expect((pause as RunPausedError).pending).toMatchObject([
      { tool: 'write_file', arguments: { path: target, content: 'Approved.' } },
    ]);
    expect(asked).toEqual(['read_text_file', 'write_file']);
    expect(existsSync(target)).toBe(false);

    const id = (pause as RunPausedError).pending[0]!.id;
    // The resumed run answers both tool calls from the journal: its model is asked only what follows.
    const result = await agent(new ScriptedModel([reply('Written.')])).run('Write approved.txt', {
      journal,
      runId: 'mcp-approval',
      approvals: { [id]: { approved: true } },
    });
    expect(result.output).toBe('Written.');
    expect(result.toolCalls.map((c) => c.result)).toEqual([
      'write it',
      expect.stringContaining('Successfully wrote'),
    ]);
    expect(await readFile(target, 'utf8')).toBe('Approved.');
  });

  it('a rejected call never reaches the server: the model reads the reason as a tool error', async () => {
    const target = join(dir, 'rejected.txt');
    const toolset = await connect(filesystemServer(dir), { needsApproval: true, include: ['write_file'] });
    const script = () =>
      new ScriptedModel([toolCall('write_file', { path: target, content: 'No.' }), reply('Not written.')]);
    const journal = memoryJournal();
    const agent = (model: ScriptedModel) => new Agent({ name: 'writer', model, tools: toolset.tools });
    const pause = (await agent(script())
      .run('Write rejected.txt', { journal, runId: 'mcp-reject' })
      .catch((e: unknown) => e)) as RunPausedError;
    const result = await agent(new ScriptedModel([reply('Not written.')])).run('Write rejected.txt', {
      journal,
      runId: 'mcp-reject',
      approvals: { [pause.pending[0]!.id]: { approved: false, message: 'not today' } },
    });
    expect(result.toolCalls).toMatchObject([{ isError: true, result: expect.stringContaining('not today') }]);
    expect(existsSync(target)).toBe(false);
  });
});

describe('checking options before anything starts', () => {
  it.each([
    [
      { command: 'x', url: 'http://127.0.0.1/mcp' },
      {},
      /a command \(stdio\) or a url \(streamable HTTP\), not both/,
    ],
    [{ command: '' }, {}, /command must be a non-empty string/],
    [{ command: 'x', args: 'a b' }, {}, /args must be an array of strings/],
    [{ command: 'x', env: { A: 1 } }, {}, /env must be an object of string values/],
    [{ url: 'ftp://example.com' }, {}, /url must be an http\(s\) URL/],
    [{ url: 'not a url' }, {}, /url must be an http\(s\) URL/],
    [{ command: 'x' }, { timeoutMs: 0 }, /timeoutMs must be a positive number of milliseconds/],
    [{ command: 'x' }, { maxResultChars: 0.5 }, /maxResultChars must be an integer >= 1/],
    [{ command: 'x' }, { prefix: 'a.b' }, /prefix must be at most 32 letters/],
    [{ command: 'x' }, { include: 'echo' }, /include must be an array of tool names/],
    [
      { command: 'x' },
      { needsApproval: 'yes' },
      /needsApproval must be a boolean or a function \(got string\)/,
    ],
    [{ a: { command: 'x' } }, { name: 'n' }, /with several servers, their names are their keys/],
    [{ a: { cmd: 'x' } }, {}, /server "a" must have a command \(stdio\) or a url/],
    [{}, {}, /give a server/],
  ])('%j with %j is a ConfigError', async (server, options, message) => {
    const before = childProcesses();
    // biome-ignore lint/suspicious/noExplicitAny: wrong on purpose
    const error = await mcpTools(server as any, options as any).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect(newChildren(before)).toEqual([]);
  });
});
