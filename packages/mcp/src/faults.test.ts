import { AbortError, Agent, ConfigError, type SwarmEvent } from '@swarm/core';
import { goneWithin, reply, ScriptedModel, toolCall } from '@swarm/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type McpToolset, mcpTools } from './index.js';
import { childProcesses, faultServer, newChildren } from './test-support.js';

// A server that misbehaves (test-fixtures/fault-server.mjs, written with the SDK): each fault is a
// tool error the model sees and the run goes on, and whatever happens the server process ends.

const open: McpToolset[] = [];
const connect = async (...args: Parameters<typeof mcpTools>) => {
  const toolset = await mcpTools(...args);
  open.push(toolset);
  return toolset;
};
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

/** Runs an agent that calls `tool`, then (after seeing the result) answers "carried on". */
async function callOnce(toolset: McpToolset, tool: string, args: Record<string, unknown> = {}) {
  const model = new ScriptedModel([toolCall(tool, args), reply('carried on')]);
  const result = await new Agent({ name: 'caller', model, tools: toolset.tools }).run(`Call ${tool}`);
  expect(result.output).toBe('carried on');
  return result.toolCalls[0]!;
}

describe('a call that goes wrong is a tool error the model sees', () => {
  it('the server exits mid-call: the error says so, with what it wrote on stderr', async () => {
    const toolset = await connect(faultServer());
    const call = await callOnce(toolset, 'exit_mid_call');

    expect(call).toMatchObject({
      isError: true,
      result:
        'Error: MCP server "fault-server" is not running: its process exited with code 3. Its last output on stderr: "fatal: the disk went away"',
    });
    expect(await goneWithin(toolset.servers[0]!.pid!, 5_000)).toBe(true);
    // The next call does not wait for a server that is gone.
    expect(await callOnce(toolset, 'ok')).toMatchObject({
      isError: true,
      result: expect.stringMatching(/is not running/),
    });
  });

  it('the server hangs: the call times out and the server is still usable', async () => {
    const toolset = await connect(faultServer(), { timeoutMs: 300 });

    expect(await callOnce(toolset, 'hang')).toMatchObject({
      isError: true,
      result: 'Error: Tool "hang" did not finish within 300 ms.',
    });
    expect(await callOnce(toolset, 'ok')).toMatchObject({ isError: false, result: 'fine' });
  });

  it('the server answers with an error result: its text is the tool error', async () => {
    const toolset = await connect(faultServer());

    expect(await callOnce(toolset, 'fail')).toMatchObject({
      isError: true,
      result: 'Error: The quota of this key is used up.',
    });
  });

  it('the server answers with malformed content: the error says where', async () => {
    const toolset = await connect(faultServer());

    expect(await callOnce(toolset, 'malformed')).toMatchObject({
      isError: true,
      result: 'Error: MCP server "fault-server" sent a malformed result: content.0: Invalid input',
    });
    expect(await callOnce(toolset, 'ok')).toMatchObject({ isError: false, result: 'fine' });
  });

  it('the server sends 5 MB: the model gets the first maxResultChars characters and a note of the cut', async () => {
    const toolset = await connect(faultServer(), { maxResultChars: 1_000 });
    const call = await callOnce(toolset, 'huge', { megabytes: 5 });

    expect(call.isError).toBe(false);
    expect(call.result).toBe(
      `${'x'.repeat(1_000)}\n[The result was cut here: it had 5242880 characters, of which the first 1000 are shown.]`,
    );
  });
});

describe('notifications', () => {
  it('a progress notification sent together with the answer still reaches the run, before the answer', async () => {
    const toolset = await connect(faultServer());
    const events: SwarmEvent[] = [];
    const model = new ScriptedModel([toolCall('progress_with_answer', {}), reply('carried on')]);
    await new Agent({ name: 'caller', model, tools: toolset.tools }).run('Call it', {
      onEvent: (e) => events.push(e),
    });

    const types = events
      .filter((e) => e.type === 'mcp.progress' || e.type === 'tool.result')
      .map((e) => e.type);
    expect(types).toEqual(['mcp.progress', 'tool.result']);
  });
});

describe('ending the server while a call is in flight', () => {
  for (const [what, flags] of [
    ['a server that exits on SIGTERM', []],
    ['a server that ignores SIGTERM', ['--ignore-sigterm']],
  ] as const) {
    // The escalation is 100 ms to SIGTERM and 400 ms more to SIGKILL; the bound leaves room for a
    // loaded machine, whose timers slip (CI once took over a second), without waiting on a stuck server.
    it(`an aborted run ends ${what} within the SIGTERM/SIGKILL escalation, leaving no zombie`, async () => {
      const before = childProcesses();
      const controller = new AbortController();
      const toolset = await connect(faultServer(...flags), { signal: controller.signal });
      const pid = toolset.servers[0]!.pid!;
      const model = new ScriptedModel([toolCall('hang', {})]);
      const running = new Agent({ name: 'caller', model, tools: toolset.tools }).run('Call hang', {
        signal: controller.signal,
        onEvent: (event: SwarmEvent) => {
          if (event.type === 'tool.call') setTimeout(() => controller.abort(), 50);
        },
      });

      await expect(running).rejects.toBeInstanceOf(AbortError);
      expect(await goneWithin(pid, 5_000)).toBe(true);
      expect(newChildren(before)).toEqual([]);
    });
  }

  it('close() during a call makes it a tool error and ends the server', async () => {
    const toolset = await connect(faultServer('--ignore-sigterm'));
    const pid = toolset.servers[0]!.pid!;
    const model = new ScriptedModel([toolCall('hang', {}), reply('carried on')]);
    const result = await new Agent({ name: 'caller', model, tools: toolset.tools }).run('Call hang', {
      onEvent: (event: SwarmEvent) => {
        if (event.type === 'tool.call') setTimeout(() => void toolset.close(), 50);
      },
    });

    expect(result.toolCalls[0]).toMatchObject({
      isError: true,
      result: 'Error: the tools of MCP server "fault-server" were closed.',
    });
    expect(await goneWithin(pid, 5_000)).toBe(true);
  });
});

describe('a tool whose definition is invalid', () => {
  it("is skipped with a warning event, and the server's other tools work", async () => {
    const events: SwarmEvent[] = [];
    const toolset = await connect(faultServer('--bad-schema'), { onEvent: (event) => events.push(event) });

    expect(toolset.tools.map((t) => t.name)).toContain('ok');
    expect(toolset.tools.map((t) => t.name)).not.toContain('bad_schema');
    expect(toolset.skipped).toEqual([
      { server: 'fault-server', tool: 'bad_schema', reason: expect.stringContaining('not a valid MCP tool') },
    ]);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'warning',
        source: 'mcpTools',
        server: 'fault-server',
        tool: 'bad_schema',
        message: expect.stringContaining('"bad_schema" of MCP server "fault-server" is skipped'),
      }),
    ]);
    expect(await callOnce(toolset, 'ok')).toMatchObject({ isError: false, result: 'fine' });
  });

  it('is a ConfigError when the user named it in include, and the server is ended', async () => {
    const before = childProcesses();
    const error = await mcpTools(faultServer('--bad-schema'), { include: ['ok', 'bad_schema'] }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(
      /"bad_schema" of MCP server "fault-server" cannot be included: its definition is not a valid MCP tool/,
    );
    await expect.poll(() => newChildren(before), { timeout: 10_000 }).toEqual([]);
  });
});
