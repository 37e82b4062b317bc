import { Agent, ConfigError, type SwarmEvent } from '@swarm/core';
import { reply, ScriptedModel, toolCall, toolCalls } from '@swarm/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { handoff } from './handoff.js';
import type { HistoryItem } from './history.js';
import { handoffTargets, handTo, supportDesk, toolNames } from './support-desk.fixture.js';
import type { SwarmOptions } from './swarm-options.js';
import { Team } from './team.js';

const request = 'I was charged twice for invoice 42';
const BillingHandoff = z.object({ invoice_id: z.string(), reason: z.string() });

describe('Team.swarm: the seed example', () => {
  it('passes the thread with tool and handoff markers to billing (generic handoff tool)', async () => {
    const desk = supportDesk({
      triage: [
        toolCall('lookup_invoice', { invoice_id: '42' }),
        handTo('billing', 'duplicate charge on invoice 42', 'Passing this to billing.'),
      ],
      billing: [reply('Refunded the duplicate charge on invoice 42.')],
    });
    const team = Team.swarm({
      agents: { triage: desk.triage, billing: desk.billing, tech: desk.tech },
      entryAgent: 'triage',
    });

    const result = await team.run(request);

    expect(desk.models.triage.calls[0]?.messages).toEqual([{ role: 'user', content: request }]);
    expect(toolNames(desk.models.triage.calls[0])).toEqual(['lookup_invoice', 'handoff']);
    expect(handoffTargets(desk.models.triage.calls[0])).toEqual(['billing', 'tech']);
    expect(desk.models.billing.calls[0]?.messages).toEqual([
      { role: 'user', content: request },
      {
        role: 'user',
        name: 'triage',
        content: '[triage called lookup_invoice({"invoice_id": "42"}) → invoice 42: charged twice]',
      },
      { role: 'user', name: 'triage', content: 'Passing this to billing.' },
      { role: 'user', name: 'triage', content: '[Handoff: triage → billing] duplicate charge on invoice 42' },
    ]);
    expect(handoffTargets(desk.models.billing.calls[0])).toEqual(['triage', 'tech']);
    expect(desk.models.tech.calls).toHaveLength(0);
    expect(result).toMatchObject({
      output: 'Refunded the duplicate charge on invoice 42.',
      lastAgent: 'billing',
      handoffs: [{ from: 'triage', to: 'billing', message: 'duplicate charge on invoice 42' }],
      llmCalls: 3,
      usage: { totalTokens: 45 },
      interrupted: false,
    });
    expect(result.interruptionReason).toBeUndefined();
    expect(result.messages).toEqual([
      { type: 'request', content: request },
      {
        type: 'tool',
        agent: 'triage',
        tool: 'lookup_invoice',
        arguments: { invoice_id: '42' },
        result: 'invoice 42: charged twice',
      },
      { type: 'text', agent: 'triage', content: 'Passing this to billing.' },
      { type: 'handoff', from: 'triage', to: 'billing', message: 'duplicate charge on invoice 42' },
      { type: 'text', agent: 'billing', content: 'Refunded the duplicate charge on invoice 42.' },
    ]);
  });

  it('gives agents a transfer_to_billing tool shaped by the inputType (typed handoff)', async () => {
    const desk = supportDesk({
      triage: [
        toolCall('lookup_invoice', { invoice_id: '42' }),
        toolCall('transfer_to_billing', { invoice_id: '42', reason: 'duplicate charge' }),
      ],
      billing: [toolCall('lookup_invoice', { invoice_id: '42' }), reply('Refund issued.')],
    });
    const team = Team.swarm({
      agents: {
        triage: desk.triage,
        billing: handoff(desk.billing, { inputType: BillingHandoff }),
        tech: desk.tech,
      },
      entryAgent: 'triage',
    });

    const result = await team.run(request);

    const triageCall = desk.models.triage.calls[0];
    expect(toolNames(triageCall)).toEqual(['lookup_invoice', 'handoff', 'transfer_to_billing']);
    expect(handoffTargets(triageCall)).toEqual(['tech']);
    expect(triageCall?.tools?.find((t) => t.name === 'transfer_to_billing')?.parameters).toMatchObject({
      type: 'object',
      properties: { invoice_id: { type: 'string' }, reason: { type: 'string' } },
      required: ['invoice_id', 'reason'],
    });
    expect(desk.models.billing.calls[0]?.messages).toEqual([
      { role: 'user', content: request },
      {
        role: 'user',
        name: 'triage',
        content: '[triage called lookup_invoice({"invoice_id": "42"}) → invoice 42: charged twice]',
      },
      {
        role: 'user',
        name: 'triage',
        content: '[Handoff: triage → billing] {"invoice_id": "42", "reason": "duplicate charge"}',
      },
    ]);
    // Billing can hand back only through the generic tool: no peer of it is typed.
    expect(toolNames(desk.models.billing.calls[0])).toEqual(['lookup_invoice', 'handoff']);
    expect(result.output).toBe('Refund issued.');
    expect(result.handoffs).toEqual([
      {
        from: 'triage',
        to: 'billing',
        message: '{"invoice_id": "42", "reason": "duplicate charge"}',
        arguments: { invoice_id: '42', reason: 'duplicate charge' },
      },
    ]);
  });

  it('sends typed handoff arguments that fail validation back to the model, which retries', async () => {
    const desk = supportDesk({
      triage: [
        toolCall('transfer_to_billing', { invoice_id: 42 }),
        toolCall('transfer_to_billing', { invoice_id: '42', reason: 'duplicate charge' }),
      ],
      billing: [reply('Refund issued.')],
    });
    const team = Team.swarm({
      agents: { triage: desk.triage, billing: handoff(desk.billing, { inputType: BillingHandoff }) },
      entryAgent: 'triage',
    });

    const result = await team.run(request);

    const retry = desk.models.triage.calls[1]?.messages.at(-1);
    expect(retry?.role).toBe('tool');
    expect(retry?.content).toMatch(/^Invalid arguments: .*invoice_id.*reason.*Try again\.$/);
    // The failed attempt changed nothing, so billing does not see it.
    expect(desk.models.billing.calls[0]?.messages).toEqual([
      { role: 'user', content: request },
      {
        role: 'user',
        name: 'triage',
        content: '[Handoff: triage → billing] {"invoice_id": "42", "reason": "duplicate charge"}',
      },
    ]);
    expect(result.handoffs).toHaveLength(1);
    expect(result.output).toBe('Refund issued.');
  });
});

describe('Team.swarm: turns and who may hand off', () => {
  it('follows the handoffs map: billing may only hand back, tech gets no handoff tools', async () => {
    const desk = supportDesk({
      triage: [handTo('billing', 'refund question'), handTo('tech', 'actually the app crashes')],
      billing: [handTo('triage', 'this is not billing')],
      tech: [reply('Reinstall the app.')],
    });
    const team = Team.swarm({
      agents: { triage: desk.triage, billing: desk.billing, tech: desk.tech },
      entryAgent: 'triage',
      handoffs: { triage: ['billing', 'tech'], billing: ['triage'] },
    });

    const result = await team.run('My app crashes when I open an invoice');

    expect(handoffTargets(desk.models.triage.calls[0])).toEqual(['billing', 'tech']);
    expect(handoffTargets(desk.models.billing.calls[0])).toEqual(['triage']);
    expect(desk.models.tech.calls[0]?.tools).toBeUndefined();
    expect(result.handoffs.map((h) => `${h.from}→${h.to}`)).toEqual([
      'triage→billing',
      'billing→triage',
      'triage→tech',
    ]);
    expect(result.output).toBe('Reinstall the app.');
  });

  it('answers a handoff to a peer outside the map as invalid, so the model picks an allowed one', async () => {
    const desk = supportDesk({
      triage: [handTo('billing', 'refund'), reply('Triage answers.')],
      billing: [handTo('tech', 'crash'), handTo('triage', 'not billing')],
    });
    const team = Team.swarm({
      agents: { triage: desk.triage, billing: desk.billing, tech: desk.tech },
      entryAgent: 'triage',
      handoffs: { triage: ['billing', 'tech'], billing: ['triage'] },
    });

    const result = await team.run(request);

    const answer = desk.models.billing.calls[1]?.messages.at(-1);
    expect(answer?.role).toBe('tool');
    expect(answer?.content).toMatch(/^Invalid arguments: .*target.*Try again\.$/);
    expect(desk.models.tech.calls).toHaveLength(0);
    expect(result.handoffs.map((h) => `${h.from}→${h.to}`)).toEqual(['triage→billing', 'billing→triage']);
    expect(result.output).toBe('Triage answers.');
  });

  it('shows an agent its own earlier turns as assistant turns when the conversation comes back', async () => {
    const desk = supportDesk({
      triage: [handTo('billing', 'refund question', 'Passing this to billing.'), reply('Sorry, fixed it.')],
      billing: [handTo('triage', 'not a billing matter')],
    });
    const team = Team.swarm({ agents: { triage: desk.triage, billing: desk.billing }, entryAgent: 'triage' });

    await team.run(request);

    expect(desk.models.triage.calls[1]?.messages).toEqual([
      { role: 'user', content: request },
      { role: 'assistant', content: 'Passing this to billing.' },
      { role: 'assistant', content: '[Handoff: triage → billing] refund question' },
      { role: 'user', name: 'billing', content: '[Handoff: billing → triage] not a billing matter' },
    ]);
  });

  it('runs only the first of two handoffs in one response; the calls after it are answered as not executed and kept out of the history', async () => {
    const desk = supportDesk({
      triage: [
        toolCalls(
          { name: 'handoff', arguments: { target: 'billing', message: 'refund' } },
          { name: 'handoff', arguments: { target: 'tech', message: 'crash' } },
          { name: 'lookup_invoice', arguments: { invoice_id: '42' } },
        ),
      ],
      billing: [reply('Refund issued.')],
    });
    const events: SwarmEvent[] = [];
    const team = Team.swarm({
      agents: { triage: desk.triage, billing: desk.billing, tech: desk.tech },
      entryAgent: 'triage',
    });

    const result = await team.run(request, { onEvent: (e) => events.push(e) });

    expect(desk.models.billing.calls[0]?.messages).toEqual([
      { role: 'user', content: request },
      { role: 'user', name: 'triage', content: '[Handoff: triage → billing] refund' },
    ]);
    expect(desk.models.triage.calls).toHaveLength(1);
    expect(desk.models.tech.calls).toHaveLength(0);
    expect(result.handoffs).toEqual([{ from: 'triage', to: 'billing', message: 'refund' }]);
    expect(result.messages).toEqual([
      { type: 'request', content: request },
      { type: 'handoff', from: 'triage', to: 'billing', message: 'refund' },
      { type: 'text', agent: 'billing', content: 'Refund issued.' },
    ]);
    // The calls after the first handoff were never started, and were answered as not executed.
    expect(events.filter((e) => e.type === 'tool.call').map((e) => e.arguments)).toEqual([
      { target: 'billing', message: 'refund' },
    ]);
    const skipped = events.filter((e) => e.type === 'tool.result' && e.skipped === true);
    expect(skipped.map((e) => e.tool)).toEqual(['handoff', 'lookup_invoice']);
    for (const e of skipped) expect(e.result).toMatch(/^Not executed: handoff ended this turn first\.$/);
    expect(events.filter((e) => e.type === 'swarm.handoff')).toHaveLength(1);
  });

  it('passes only the request and the latest handoff when passFullHistory is false', async () => {
    const desk = supportDesk({
      triage: [handTo('billing', 'invoice question', 'Looks like billing.')],
      billing: [
        toolCall('lookup_invoice', { invoice_id: '42' }),
        handTo('tech', 'charged twice because the app retried', 'This is a retry bug.'),
      ],
      tech: [reply('Fixed the retry bug.')],
    });
    const team = Team.swarm({
      agents: { triage: desk.triage, billing: desk.billing, tech: desk.tech },
      entryAgent: 'triage',
      passFullHistory: false,
    });

    await team.run(request);

    expect(desk.models.tech.calls[0]?.messages).toEqual([
      { role: 'user', content: request },
      {
        role: 'user',
        name: 'billing',
        content: '[billing called lookup_invoice({"invoice_id": "42"}) → invoice 42: charged twice]',
      },
      { role: 'user', name: 'billing', content: 'This is a retry bug.' },
      {
        role: 'user',
        name: 'billing',
        content: '[Handoff: billing → tech] charged twice because the app retried',
      },
    ]);
  });

  it("rewrites what a peer sees with its handoff's inputFilter", async () => {
    const desk = supportDesk({
      triage: [toolCall('lookup_invoice', { invoice_id: '42' }), handTo('tech', 'app double-submits')],
      tech: [reply('Fixed.')],
    });
    const seen: unknown[] = [];
    const team = Team.swarm({
      agents: {
        triage: desk.triage,
        tech: handoff(desk.tech, {
          inputFilter: (history, info) => {
            seen.push(info);
            return history.filter((item) => item.type !== 'tool');
          },
        }),
      },
      entryAgent: 'triage',
    });

    await team.run(request);

    expect(seen).toEqual([{ from: 'triage', to: 'tech', message: 'app double-submits' }]);
    expect(desk.models.tech.calls[0]?.messages).toEqual([
      { role: 'user', content: request },
      { role: 'user', name: 'triage', content: '[Handoff: triage → tech] app double-submits' },
    ]);
  });

  it('keeps the thread intact when an inputFilter edits the items it receives', async () => {
    const desk = supportDesk({
      triage: [handTo('tech', 'app double-submits', 'Looks technical.')],
      tech: [reply('Fixed.')],
    });
    const team = Team.swarm({
      agents: {
        triage: desk.triage,
        tech: handoff(desk.tech, {
          inputFilter: (history) => {
            for (const item of history) if (item.type === 'text') item.content = '(redacted)';
            history.splice(0, 1);
            return history;
          },
        }),
      },
      entryAgent: 'triage',
    });

    const result = await team.run(request);

    expect(desk.models.tech.calls[0]?.messages).toEqual([
      { role: 'user', name: 'triage', content: '(redacted)' },
      { role: 'user', name: 'triage', content: '[Handoff: triage → tech] app double-submits' },
    ]);
    expect(result.messages.slice(0, 2)).toEqual([
      { type: 'request', content: request },
      { type: 'text', agent: 'triage', content: 'Looks technical.' },
    ]);
  });

  it('rejects an inputFilter that returns something other than history items', async () => {
    const desk = supportDesk({ triage: [handTo('tech', 'crash')] });
    const team = Team.swarm({
      agents: {
        triage: desk.triage,
        tech: handoff(desk.tech, {
          inputFilter: () => [{ type: 'text', content: 'no agent' }] as unknown as HistoryItem[],
        }),
      },
      entryAgent: 'triage',
    });

    const events: SwarmEvent[] = [];
    const failure = team.run(request, { onEvent: (e) => events.push(e) });
    await expect(failure).rejects.toThrow(ConfigError);
    await expect(failure).rejects.toThrow(
      /handoff\("tech"\): inputFilter must return an array of history items/,
    );
    expect(desk.models.tech.calls).toHaveLength(0);
    // The trace is closed even though the run failed.
    expect(events.at(-1)).toMatchObject({ type: 'run.error', code: 'CONFIG', topology: 'Swarm' });
  });

  it('emits swarm.handoff for every handoff and streams the answer text', async () => {
    const desk = supportDesk({
      triage: [handTo('billing', 'refund')],
      billing: [reply('Refund issued today.')],
    });
    const team = Team.swarm({ agents: { triage: desk.triage, billing: desk.billing }, entryAgent: 'triage' });

    const stream = team.stream(request);
    const events: SwarmEvent[] = [];
    for await (const event of stream) events.push(event);
    const result = await stream.result;

    expect(events.filter((e) => e.type.startsWith('swarm.'))).toMatchObject([
      {
        type: 'swarm.handoff',
        agent: 'triage',
        from: 'triage',
        to: 'billing',
        message: 'refund',
        topology: 'Swarm',
      },
    ]);
    const deltas = events
      .filter((e) => e.type === 'model.delta' && e.agent === 'billing')
      .map((e) => e.delta);
    expect(deltas.join('')).toBe('Refund issued today.');
    expect(deltas.length).toBeGreaterThan(1);
    expect(events.at(0)?.type).toBe('run.start');
    expect(events.at(-1)).toMatchObject({ type: 'run.end', agent: 'billing' });
    expect(result.output).toBe('Refund issued today.');
  });
});

describe('Team.swarm: limits', () => {
  it('allows handing back twice (A→B→A→B→A)', async () => {
    const desk = supportDesk({
      triage: [handTo('billing', '1'), handTo('billing', '3'), reply('Answered by triage.')],
      billing: [handTo('triage', '2'), handTo('triage', '4')],
    });
    const team = Team.swarm({ agents: { triage: desk.triage, billing: desk.billing }, entryAgent: 'triage' });

    const result = await team.run(request);

    expect(result.handoffs).toHaveLength(4);
    expect(result.interrupted).toBe(false);
    expect(result.output).toBe('Answered by triage.');
  });

  it('stops a cycle (A→B→A→B→A→B): billing answers once more without handoff tools', async () => {
    const desk = supportDesk({
      triage: [handTo('billing', '1'), handTo('billing', '3'), handTo('billing', '5')],
      billing: [handTo('triage', '2'), handTo('triage', '4'), reply('Billing answers anyway.')],
    });
    const events: SwarmEvent[] = [];
    const team = Team.swarm({ agents: { triage: desk.triage, billing: desk.billing }, entryAgent: 'triage' });

    const result = await team.run(request, { onEvent: (e) => events.push(e) });

    expect(result.handoffs.map((h) => h.message)).toEqual(['1', '2', '3', '4', '5']);
    expect(toolNames(desk.models.billing.calls[1])).toEqual(['lookup_invoice', 'handoff']);
    expect(toolNames(desk.models.billing.calls[2])).toEqual(['lookup_invoice']);
    expect(desk.models.billing.calls[2]?.messages.at(-1)).toEqual({
      role: 'user',
      name: 'triage',
      content: '[Handoff: triage → billing] 5',
    });
    expect(result).toMatchObject({
      output: 'Billing answers anyway.',
      lastAgent: 'billing',
      interrupted: true,
      interruptionReason: 'swarm:cycle_detected',
    });
    expect(events.filter((e) => e.type === 'swarm.cycle_detected')).toMatchObject([
      { agent: 'billing', path: ['triage', 'billing', 'triage', 'billing', 'triage', 'billing'] },
    ]);
    expect(events.filter((e) => e.type === 'swarm.handoff')).toHaveLength(5);
  });

  it('stops at maxHandoffs: the agent just handed the conversation answers without handoff tools', async () => {
    const desk = supportDesk({
      triage: [handTo('billing', '1'), reply('Triage answers anyway.')],
      billing: [handTo('tech', '2')],
      tech: [handTo('triage', '3')],
    });
    const events: SwarmEvent[] = [];
    const team = Team.swarm({
      agents: { triage: desk.triage, billing: desk.billing, tech: desk.tech },
      entryAgent: 'triage',
      maxHandoffs: 3,
    });

    const result = await team.run(request, { onEvent: (e) => events.push(e) });

    expect(toolNames(desk.models.triage.calls[1])).toEqual(['lookup_invoice']);
    expect(result).toMatchObject({
      output: 'Triage answers anyway.',
      lastAgent: 'triage',
      interrupted: true,
      interruptionReason: 'swarm:max_handoffs',
    });
    expect(result.handoffs).toHaveLength(3);
    expect(events.filter((e) => e.type === 'swarm.max_handoffs')).toMatchObject([
      { agent: 'triage', maxHandoffs: 3 },
    ]);
  });

  it('stops a loop through three agents at the default cap of 8 handoffs', async () => {
    const desk = supportDesk({
      triage: [handTo('billing', '1'), handTo('billing', '4'), handTo('billing', '7')],
      billing: [handTo('tech', '2'), handTo('tech', '5'), handTo('tech', '8')],
      tech: [handTo('triage', '3'), handTo('triage', '6'), reply('Tech answers at the cap.')],
    });
    const events: SwarmEvent[] = [];
    const team = Team.swarm({
      agents: { triage: desk.triage, billing: desk.billing, tech: desk.tech },
      entryAgent: 'triage',
    });

    const result = await team.run(request, { onEvent: (e) => events.push(e) });

    expect(result.handoffs.map((h) => h.message)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(toolNames(desk.models.tech.calls[1])).toEqual(['handoff']);
    expect(desk.models.tech.calls[2]?.tools).toBeUndefined();
    expect(result).toMatchObject({
      output: 'Tech answers at the cap.',
      lastAgent: 'tech',
      interrupted: true,
      interruptionReason: 'swarm:max_handoffs',
    });
    expect(events.filter((e) => e.type === 'swarm.max_handoffs')).toMatchObject([
      { agent: 'tech', maxHandoffs: 8 },
    ]);
    expect(events.filter((e) => e.type === 'swarm.cycle_detected')).toHaveLength(0);
  });

  it('leaves only the cap when detectCycles is false', async () => {
    const desk = supportDesk({
      triage: [handTo('billing', '1'), handTo('billing', '3'), handTo('billing', '5')],
      billing: [handTo('triage', '2'), handTo('triage', '4'), handTo('triage', '6')],
    });
    desk.models.triage.push(reply('Triage answers at the cap.'));
    const team = Team.swarm({
      agents: { triage: desk.triage, billing: desk.billing },
      entryAgent: 'triage',
      detectCycles: false,
      maxHandoffs: 6,
    });

    const result = await team.run(request);

    expect(result.handoffs).toHaveLength(6);
    expect(toolNames(desk.models.triage.calls[3])).toEqual(['lookup_invoice']);
    expect(result).toMatchObject({
      output: 'Triage answers at the cap.',
      interruptionReason: 'swarm:max_handoffs',
    });
  });
});

describe('Team.swarm: options', () => {
  const desk = supportDesk({});
  const agents = { triage: desk.triage, billing: desk.billing, tech: desk.tech };

  it.each([
    ['an unknown entryAgent', { agents, entryAgent: 'sales' }, /entryAgent "sales" is not one of the agents/],
    ['no agents', { agents: {}, entryAgent: 'triage' }, /agents must name at least one agent/],
    [
      'a handoffs map naming an unknown agent',
      { agents, entryAgent: 'triage', handoffs: { sales: ['billing'] } },
      /handoffs names "sales"/,
    ],
    [
      'a handoffs map naming an unknown target',
      { agents, entryAgent: 'triage', handoffs: { triage: ['sales'] } },
      /handoffs.triage names "sales"/,
    ],
    [
      'a handoffs map letting an agent hand off to itself',
      { agents, entryAgent: 'triage', handoffs: { billing: ['billing'] } },
      /handoffs.billing lists "billing" itself/,
    ],
    [
      'maxHandoffs below 1',
      { agents, entryAgent: 'triage', maxHandoffs: 0 },
      /maxHandoffs must be an integer >= 1/,
    ],
    [
      'a non-boolean flag',
      { agents, entryAgent: 'triage', passFullHistory: 'no' },
      /passFullHistory must be true or false/,
    ],
    [
      'sessions that are not a SessionStore',
      { agents, entryAgent: 'triage', sessions: { get: 'nope' } },
      /sessions must be a SessionStore/,
    ],
    [
      'a member that is not an agent',
      { agents: { triage: {} }, entryAgent: 'triage' },
      /agents.triage must be an Agent/,
    ],
    [
      'a typed peer whose name cannot name a tool',
      {
        agents: { triage: desk.triage, 'billing desk': handoff(desk.billing, { inputType: z.object({}) }) },
        entryAgent: 'triage',
      },
      /agents.billing desk has an inputType/,
    ],
  ])('rejects %s with a ConfigError', (_label, options, message) => {
    const build = () => Team.swarm(options as unknown as SwarmOptions);
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(message);
  });

  it.each([
    ['an inputType that is not a z.object', { inputType: z.string() }, /inputType must be a z.object/],
    ['an inputFilter that is not a function', { inputFilter: 'all' }, /inputFilter must be a function/],
    ['a description that is not a string', { description: 3 }, /description must be a string/],
  ])('handoff() rejects %s with a ConfigError', (_label, options, message) => {
    const wrap = () => handoff(desk.billing, options as never);
    expect(wrap).toThrow(ConfigError);
    expect(wrap).toThrow(message);
  });

  it('rejects an agent tool that collides with its handoff tool', () => {
    const clash = new Agent({
      name: 'clash',
      model: new ScriptedModel(),
      tools: [{ ...desk.triage.tools[0]!, name: 'handoff' }],
    });
    expect(() => Team.swarm({ agents: { clash, tech: desk.tech }, entryAgent: 'clash' })).toThrow(
      /agent "clash" has a tool named "handoff"/,
    );
  });

  it('rejects an empty sessionId', async () => {
    const team = Team.swarm({ agents, entryAgent: 'triage' });
    await expect(team.run('hi', { sessionId: '' })).rejects.toThrow(ConfigError);
  });
});
