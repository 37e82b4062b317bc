// The run the crash test kills and resumes, shared by the child process (which runs the built
// packages) and the test (which runs the sources): a three-step SequentialWorkflow whose middle
// step is a HierarchicalSwarm nested in it, two workers in parallel. The researcher and both
// workers call `note`, a tool with a side effect (it appends a line to a file).
import { appendFileSync } from 'node:fs';
import { Agent, fnv1a, openaiModel, tool } from '@swarm/core';
import type { MockReply, MockRequest } from '@swarm/core/testing';
import { HierarchicalSwarm } from '@swarm/hierarchy';
import { SequentialWorkflow } from '@swarm/workflow';
import { z } from 'zod';

export const task = 'Write a one-paragraph brief on bike lanes for the city council.';

/** The run over the mock server at `baseURL`; `note` appends each call's text to `sideEffects`. */
export function crashRun(baseURL: string, sideEffects: string): SequentialWorkflow {
  const model = openaiModel('gpt-crash', { baseURL, apiKey: 'crash-test', maxRetries: 0 });
  const note = tool({
    name: 'note',
    description: 'Writes a note to the shared notebook.',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => {
      appendFileSync(sideEffects, `${text}\n`);
      return `noted: ${text}`;
    },
  });
  const agent = (name: string, tools = [note]) =>
    new Agent({ name, instructions: `You are the ${name}.`, model, tools });
  const hierarchy = new HierarchicalSwarm({
    name: 'analysis',
    director: model,
    agents: [agent('analyst'), agent('checker')],
  });
  return new SequentialWorkflow({ agents: [agent('researcher'), hierarchy, agent('editor', [])] });
}

/**
 * The mock server's answers: a function of the request's content alone, so every run (killed,
 * resumed, uninterrupted) gets the same answer to the same request. The director's spec (its
 * run's typed output `final_output`: native JSON, or the forced tool) orders both workers; an
 * agent with `note` calls it once, then answers.
 */
export function answer(request: MockRequest): MockReply {
  const body = request.body as {
    messages: { role: string; content?: unknown }[];
    tools?: { function: { name: string } }[];
    tool_choice?: { function?: { name: string } };
    response_format?: { json_schema?: { name: string } };
  };
  const contents = body.messages.map((m) => `${m.role}:${typeof m.content === 'string' ? m.content : ''}`);
  const digest = fnv1a(contents.join('\n')).toString(16);
  // A different wait per request, so the concurrent workers finish in varying order.
  const delayMs = 5 + (fnv1a(digest) % 20);
  const system = String(body.messages[0]?.content ?? '');
  const who = /You are the (\w+)\./.exec(system)?.[1] ?? 'director';
  const spec = {
    plan: 'Analyse and check in parallel.',
    orders: [
      { id: 'o1', agentName: 'analyst', task: 'Analyse the research.' },
      { id: 'o2', agentName: 'checker', task: 'Check the research.' },
    ],
    done: true,
  };
  // Native JSON output where the model has it (openaiModel), else the forced final tool.
  if (body.response_format?.json_schema?.name === 'final_output') {
    return { delayMs, text: JSON.stringify(spec) };
  }
  if (body.tool_choice?.function?.name === 'final_output') {
    return { delayMs, toolCalls: [{ id: `spec-${digest}`, name: 'final_output', arguments: spec }] };
  }
  const noted = body.messages.some((m) => m.role === 'tool');
  if (body.tools?.some((t) => t.function.name === 'note') && !noted) {
    return {
      delayMs,
      toolCalls: [{ id: `note-${who}-${digest}`, name: 'note', arguments: { text: `${who} ${digest}` } }],
    };
  }
  return { delayMs, text: `${who} says ${digest}.` };
}

/** The request's identity at the server: its whole body (the answers make it deterministic). */
export function requestKey(request: MockRequest): string {
  return JSON.stringify(request.body);
}
