import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AbortError, ConfigError, Conversation, ModelError, type SwarmEvent } from '@swarm/core';
import { fail, Gate, respond, ScriptedModel } from '@swarm/core/testing';
import type { Embedder } from '@swarm/embeddings';
import { describe, expect, it, vi } from 'vitest';
import { ForestSwarm } from './forest-swarm.js';
import { referenceTexts } from './reference-texts.js';
import { countingEmbedder, routingTrees } from './test-helpers.js';
import { Tree } from './tree.js';
import { TreeAgent } from './tree-agent.js';

/** Every agent answers "<name> answers" forever. */
const answering = (name: string) => new ScriptedModel([], { fallback: respond(() => `${name} answers`) });

function financialForest(extra: Partial<ConstructorParameters<typeof ForestSwarm>[0]> = {}) {
  return new ForestSwarm({ trees: routingTrees(answering), ...extra });
}

describe('ForestSwarm.route', () => {
  it('routes the Delaware tax question to the tax expert and explains why', async () => {
    const decision = await financialForest().route(
      'Our company is incorporated in Delaware, how do we do our corporate taxes?',
    );
    expect(decision).toMatchObject({
      tree: 'Financial Services',
      agent: 'Tax Expert',
      strategy: 'best',
      rule: 'keyword+similarity',
      calibration: 'reference',
    });
    expect(decision.keywordMatches).toEqual(expect.arrayContaining(['tax', 'corporate']));
    expect(decision.similarity).toBeGreaterThan(decision.threshold);
    // With an explicit threshold the similarity is not rebased: score = similarity + 0.3 x keywordScore.
    const explicit = await financialForest({ threshold: 0.07 }).route(
      'Our company is incorporated in Delaware, how do we do our corporate taxes?',
    );
    expect(explicit).toMatchObject({ agent: 'Tax Expert', threshold: 0.07, calibration: 'explicit' });
    expect(explicit.score).toBeCloseTo(explicit.similarity + 0.3 * explicit.keywordScore, 3);
    expect(decision.runnerUp).toBeDefined();
    expect(decision.runnerUp!.agent).not.toBe('Tax Expert');
    expect(decision.runnerUp!.score).toBeLessThanOrEqual(decision.score);
  });

  it('counts keywords only as whole tokens, never as substrings', async () => {
    // "tax" is a Tax Expert keyword; "taxi" and "syntax" must not match it. With 'first' routing a
    // substring match would make the Tax Expert (first tree, first agent) relevant and take the task.
    const task = 'Book a taxi and fix the syntax of my React component';
    const best = await financialForest().route(task);
    expect(best.agent).toBe('Frontend Developer');
    const taxExpert = routingTrees(answering)[0]!.agents[0]!;
    expect(taxExpert.keywordMatches(task)).toEqual([]);
    const first = await financialForest({ routing: 'first' }).route(task);
    expect(first).toMatchObject({ agent: 'Frontend Developer', keywordMatches: ['react', 'components'] });
    const taxOnly = await financialForest({ routing: 'first' }).route('Is a tax refund taxable?');
    expect(taxOnly).toMatchObject({ agent: 'Tax Expert', keywordMatches: ['tax', 'refunds'] });
  });

  it("with routing 'first' takes the first relevant agent in tree order, not the best one", async () => {
    const generalist = new TreeAgent({
      name: 'Generalist',
      systemPrompt: 'I answer questions about money, taxes and planning.',
      model: answering('Generalist'),
    });
    const specialist = new TreeAgent({
      name: 'Tax Specialist',
      systemPrompt: 'I am a tax specialist for income tax returns, tax deductions and tax filing.',
      model: answering('Tax Specialist'),
    });
    const trees = () => [
      new Tree({ name: 'General', agents: [generalist] }),
      new Tree({ name: 'Tax', agents: [specialist] }),
    ];
    const task = 'Which tax deductions can I claim on my income tax return?';
    const best = await new ForestSwarm({ trees: trees() }).route(task);
    const first = await new ForestSwarm({ trees: trees(), routing: 'first' }).route(task);
    expect(best.agent).toBe('Tax Specialist');
    expect(first).toMatchObject({ agent: 'Generalist', strategy: 'first' });
    expect(first.runnerUp?.agent).toBe('Tax Specialist');
  });

  it('throws a NoRouteError naming the closest agent when nothing is relevant', async () => {
    await expect(financialForest().route('What is the capital of Australia?')).rejects.toMatchObject({
      name: 'NoRouteError',
      task: 'What is the capital of Australia?',
      message: expect.stringMatching(/closest/),
    });
  });

  it('forgets the least recently routed tasks past cacheSize, keeping the agents indexed', async () => {
    const { embedder, calls } = countingEmbedder();
    const forest = financialForest({ embedder, cacheSize: 1 });
    const [tax, stocks] = ['How do I file my corporate tax return?', 'Which tech stocks look strong?'];
    await forest.routeAll([tax]);
    await forest.routeAll([stocks]);
    await forest.routeAll([tax]);
    // One call for the agents, then each task again once the other pushed it out.
    expect(calls.slice(1)).toEqual([[tax], [stocks], [tax]]);
    expect(() => financialForest({ cacheSize: 0 })).toThrow(/cacheSize must be an integer >= 1/);
  });

  it('closes the trace with run.error when run cannot route the task', async () => {
    const events: SwarmEvent[] = [];
    const error = await financialForest()
      .run('What is the capital of Australia?', { onEvent: (e) => events.push(e) })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'NoRouteError' });
    expect(events.map((e) => e.type)).toEqual(['run.start', 'run.error']);
    expect(events[1]).toMatchObject({ code: 'NO_ROUTE', topology: 'ForestSwarm' });
  });

  it('sends unroutable tasks to the fallback agent and says so in the decision', async () => {
    const fallback = new TreeAgent({
      name: 'Concierge',
      systemPrompt: 'I help with anything else.',
      model: answering('Concierge'),
    });
    const forest = financialForest({ fallback });
    const result = await forest.run('What is the capital of Australia?');
    expect(result.output).toBe('Concierge answers');
    expect(result.decision).toMatchObject({ strategy: 'fallback', agent: 'Concierge' });
    expect(result.decision.tree).toBeUndefined();
    expect(result.decision.runnerUp).toBeDefined();
    expect(result.logs.tree).toBeUndefined();
  });

  it('rejects an empty or blank task with a ConfigError, with or without a fallback, calling no model', async () => {
    const concierge = new ScriptedModel([], { fallback: respond(() => 'Concierge answers') });
    const fallback = new TreeAgent({
      name: 'Concierge',
      systemPrompt: 'I help with anything else.',
      model: concierge,
    });
    for (const forest of [financialForest(), financialForest({ fallback })]) {
      for (const task of ['', '   ', '\n\t']) {
        await expect(forest.route(task)).rejects.toBeInstanceOf(ConfigError);
        await expect(forest.run(task)).rejects.toThrow(/a task must be a non-empty string/);
      }
      const settled = await forest.batchedRun(['  ', 'How much life insurance coverage do I need?']);
      expect(settled[0]).toMatchObject({ status: 'rejected', reason: expect.any(ConfigError) });
      expect(settled[1]).toMatchObject({
        status: 'fulfilled',
        value: { output: 'Insurance Advisor answers' },
      });
    }
    expect(concierge.calls).toHaveLength(0);
  });

  it('records which rule made the agent relevant: keyword, similarity, both, or fallback', async () => {
    const tagged = new TreeAgent({
      name: 'Tagged',
      systemPrompt: 'Corporate income tax returns and payroll deductions.',
      keywords: ['invoice'],
      model: answering('Tagged'),
    });
    const forest = new ForestSwarm({ trees: [new Tree({ name: 'T', agents: [tagged] })], fallback: tagged });
    await expect(forest.route('Send this invoice')).resolves.toMatchObject({ rule: 'keyword' });
    await expect(forest.route('corporate income tax returns payroll deductions')).resolves.toMatchObject({
      rule: 'similarity',
    });
    await expect(forest.route('corporate income tax returns for this invoice')).resolves.toMatchObject({
      rule: 'keyword+similarity',
    });
    await expect(forest.route('What is the capital of Australia?')).resolves.toMatchObject({
      rule: 'fallback',
      strategy: 'fallback',
    });
  });

  it('accepts an explicit threshold for every agent and then embeds no reference texts', async () => {
    const { embedder, calls } = countingEmbedder();
    const forest = financialForest({ embedder, threshold: 0.5 });
    const decision = await forest.route('Can I deduct my home office on my taxes?');
    expect(decision).toMatchObject({
      agent: 'Tax Expert',
      rule: 'keyword',
      threshold: 0.5,
      calibration: 'explicit',
    });
    expect(calls[0]).toHaveLength(9);
    expect(() => financialForest({ threshold: 'high' as 'auto' })).toThrow(
      /threshold must be a number from -1 to 1, or 'auto'/,
    );
  });

  it('finds the relevant tree, or undefined when no agent is relevant', async () => {
    const forest = financialForest();
    expect((await forest.findRelevantTree('My React component re-renders too often'))?.name).toBe(
      'Software Engineering',
    );
    await expect(forest.findRelevantTree('What is the capital of Australia?')).resolves.toBeUndefined();
  });

  it('reports an embedding failure as an error instead of routing on a zero vector', async () => {
    let failing = true;
    const flaky: Embedder = {
      id: 'flaky',
      async embed(texts) {
        if (failing) throw new ModelError('embeddings down', { provider: 'flaky' });
        return texts.map(() => Float32Array.of(1, 0));
      },
    };
    const forest = financialForest({ embedder: flaky });
    await expect(forest.route('Any task about taxes')).rejects.toThrow('embeddings down');
    failing = false;
    await expect(forest.route('Any task about taxes')).resolves.toMatchObject({ agent: 'Tax Expert' });
  });

  it('rejects a fallback or a tree of the wrong kind at construction', () => {
    // @ts-expect-error: not a TreeAgent
    expect(() => financialForest({ fallback: { name: 'x' } })).toThrow(/fallback must be a TreeAgent/);
    // @ts-expect-error: not a Tree
    expect(() => new ForestSwarm({ trees: [{ name: 'T', agents: [] }] })).toThrow(ConfigError);
    // @ts-expect-error: a string threshold
    expect(() => financialForest({ threshold: '0.5' })).toThrow(/threshold must be a number/);
  });

  it("routes a task even when another caller's abort cancels the shared prompt embedding", async () => {
    const local = countingEmbedder();
    // Honours its signal like a remote embedder: an aborted call rejects at once.
    const slow: Embedder = {
      id: 'slow',
      embed: (texts, options) =>
        new Promise((resolve, reject) => {
          options?.signal?.addEventListener('abort', () => reject(new AbortError()));
          setTimeout(() => resolve(local.embedder.embed(texts)), 20);
        }),
    };
    const forest = financialForest({ embedder: slow });
    const controller = new AbortController();
    const cancelled = forest.route('Can I deduct my home office on my taxes?', { signal: controller.signal });
    const kept = forest.route('Can I deduct my home office on my taxes?');
    controller.abort();
    await expect(cancelled).rejects.toBeInstanceOf(AbortError);
    await expect(kept).resolves.toMatchObject({ agent: 'Tax Expert' });
  });

  it("embeds the agents' prompts and the first task at once: a first route waits for one embedding call, not two", async () => {
    const local = countingEmbedder();
    let inFlight = 0;
    let most = 0;
    const waiting: (() => void)[] = [];
    // Holds each call until a second one is in flight (or 2 s pass, as a sequential router would need).
    const paired: Embedder = {
      id: 'paired',
      async embed(texts) {
        most = Math.max(most, ++inFlight);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 2_000);
          waiting.push(() => {
            clearTimeout(timer);
            resolve();
          });
          if (inFlight === 2) for (const release of waiting.splice(0)) release();
        });
        inFlight -= 1;
        return local.embedder.embed(texts);
      },
    };
    const forest = financialForest({ embedder: paired });
    await expect(forest.route('Can I deduct my home office on my taxes?')).resolves.toMatchObject({
      agent: 'Tax Expert',
    });
    expect(most).toBe(2);
    expect(local.calls).toHaveLength(2);
  });

  it('validates its options, naming the option and the accepted range', () => {
    expect(() => new ForestSwarm({ trees: [] })).toThrow(ConfigError);
    expect(() => financialForest({ threshold: 2 })).toThrow(/threshold must be a number from -1 to 1/);
    expect(() => financialForest({ keywordWeight: -1 })).toThrow(/keywordWeight/);
    // @ts-expect-error: an unknown strategy
    expect(() => financialForest({ routing: 'random' })).toThrow(/routing must be 'best' or 'first'/);
    const twin = () => new TreeAgent({ name: 'Twin', systemPrompt: 'same name', model: answering('Twin') });
    expect(
      () =>
        new ForestSwarm({
          trees: [new Tree({ name: 'A', agents: [twin()] }), new Tree({ name: 'B', agents: [twin()] })],
        }),
    ).toThrow(/"Twin" appears twice/);
  });
});

describe('ForestSwarm.run', () => {
  it('answers with the chosen agent and returns the decision, usage and the three log records', async () => {
    const result = await financialForest().run('Can I deduct my home office on my taxes?');
    expect(result.output).toBe('Tax Expert answers');
    expect(result.decision.agent).toBe('Tax Expert');
    expect(result.llmCalls).toBe(1);
    expect(result.usage.totalTokens).toBe(15);
    expect(result.logs.agentInput).toMatchObject({
      agentName: 'Tax Expert',
      task: 'Can I deduct my home office on my taxes?',
    });
    expect(result.logs.agentOutput).toMatchObject({ agentName: 'Tax Expert', result: 'Tax Expert answers' });
    expect(result.logs.tree).toMatchObject({
      treeName: 'Financial Services',
      selectedAgent: 'Tax Expert',
      result: 'Tax Expert answers',
    });
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('emits the route and the log records as events, in order', async () => {
    const events: SwarmEvent[] = [];
    await financialForest().run('How much life insurance coverage do I need?', {
      onEvent: (e) => events.push(e),
    });
    const forestEvents = events
      .map((e) => e.type)
      .filter((t) => t.startsWith('forest.') || t.startsWith('run.'));
    expect(forestEvents).toEqual([
      'run.start',
      'forest.route',
      'forest.agent_input',
      'forest.agent_output',
      'forest.tree_log',
      'run.end',
    ]);
    expect(events.find((e) => e.type === 'forest.route')).toMatchObject({
      topology: 'ForestSwarm',
      agent: 'Insurance Advisor',
      decision: { agent: 'Insurance Advisor' },
    });
  });

  it('streams the same events through stream()', async () => {
    const stream = financialForest().stream('Plan a week of vegetarian meals with enough protein.');
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toContain('forest.route');
    await expect(stream.result).resolves.toMatchObject({ output: 'Nutritionist answers' });
  });

  it('throws an agent failure instead of returning null', async () => {
    const broken = new TreeAgent({
      name: 'Broken',
      systemPrompt: 'I handle tax questions.',
      model: new ScriptedModel([fail(new Error('model down'))]),
    });
    const forest = new ForestSwarm({ trees: [new Tree({ name: 'T', agents: [broken] })] });
    await expect(forest.run('A tax question')).rejects.toThrow('model down');
  });

  it('logs decisions and records through the logger when verbose', async () => {
    const lines: string[] = [];
    await financialForest({ verbose: true, logger: (line) => lines.push(line) }).run(
      'How do I center a div with CSS?',
    );
    expect(lines[0]).toMatch(/-> Software Engineering \/ Frontend Developer \(best, score/);
    expect(lines.some((l) => l.includes('Frontend Developer starts'))).toBe(true);
    expect(lines.some((l) => l.includes('Frontend Developer answered'))).toBe(true);
    // The TreeLog is logged too: a verbose forest makes every tree verbose, as in the seed.
    expect(lines.some((l) => l.includes('Software Engineering / Frontend Developer ran'))).toBe(true);
  });

  it("logs a verbose tree's agent and tree records through the tree's logger", async () => {
    const treeLines: string[] = [];
    const forestLines: string[] = [];
    const agent = new TreeAgent({
      name: 'Tax',
      systemPrompt: 'I am a tax expert.',
      model: answering('Tax'),
    });
    const tree = new Tree({ name: 'T', agents: [agent], verbose: true, logger: (l) => treeLines.push(l) });
    await new ForestSwarm({ trees: [tree], logger: (l) => forestLines.push(l) }).run('A tax question');
    expect(forestLines).toEqual([]);
    expect(treeLines).toHaveLength(3);
    expect(treeLines.join('\n')).toMatch(/Tax starts[\s\S]*Tax answered[\s\S]*T \/ Tax ran/);
  });

  it('saves the conversation atomically after a run when conversationPath is set', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'forest-'));
    try {
      const path = join(dir, 'conversation.json');
      await financialForest({ conversationPath: path }).run('Is taking melatonin every night safe?');
      const saved = await Conversation.load(path);
      expect(saved.entries.map((e) => [e.role, e.name, e.content])).toEqual([
        ['user', undefined, 'Is taking melatonin every night safe?'],
        ['assistant', 'Sleep Specialist', 'Sleep Specialist answers'],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses conversationPath at construction where there is no file system (a browser)', () => {
    vi.stubGlobal('process', undefined);
    let thrown: unknown;
    try {
      financialForest({ conversationPath: 'conversation.json' });
    } catch (error) {
      thrown = error;
    } finally {
      vi.unstubAllGlobals();
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toBe(
      'ForestSwarm: conversationPath needs Node.js (node:fs/promises), which this runtime does not have; leave it out and keep forest.conversation.toJSON() in a store of your own.',
    );
  });
});

describe('ForestSwarm.batchedRun', () => {
  it('saves every task and answer of a concurrent batch to the conversation file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'forest-'));
    try {
      const path = join(dir, 'conversation.json');
      const tasks = [
        'How many calories should I eat to lose weight?',
        'Create a 16 week marathon training program.',
        'Is taking melatonin every night safe?',
        'How should we store user passwords securely with encryption?',
      ];
      const settled = await financialForest({ conversationPath: path }).batchedRun(tasks, { maxWorkers: 4 });
      expect(settled.every((s) => s.status === 'fulfilled')).toBe(true);
      const saved = await Conversation.load(path);
      expect(saved.entries).toHaveLength(8);
      expect(
        saved.entries
          .filter((e) => e.role === 'user')
          .map((e) => e.content)
          .sort(),
      ).toEqual([...tasks].sort());
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('returns settled results in task order when one agent fails and one task has no route', async () => {
    const forest = new ForestSwarm({
      trees: routingTrees((name) =>
        name === 'Fitness Coach'
          ? new ScriptedModel([], { fallback: fail(new Error('coach is out')) })
          : answering(name),
      ),
    });
    const settled = await forest.batchedRun(
      [
        'How many calories should I eat to lose weight?',
        'Create a 16 week marathon training program.',
        'What is the capital of Australia?',
        'How should we store user passwords securely with encryption?',
      ],
      { maxWorkers: 4 },
    );
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(settled[0]).toMatchObject({ value: { output: 'Nutritionist answers' } });
    expect(settled[1]).toMatchObject({ reason: { message: 'coach is out' } });
    expect(settled[2]).toMatchObject({ reason: { name: 'NoRouteError' } });
    expect(settled[3]).toMatchObject({ value: { output: 'Security Engineer answers' } });
  });

  it('embeds all tasks of a batch in one call, after one call for all agent prompts', async () => {
    const { embedder, calls } = countingEmbedder();
    const forest = financialForest({ embedder });
    const tasks = ['Is a high protein diet good for me?', 'Which firewall rules should block traffic?'];
    await forest.batchedRun(tasks);
    // The first call holds the 9 agent prompts and the reference texts that calibrate the thresholds.
    expect(calls.map((c) => c.length)).toEqual([9 + referenceTexts.length, 2]);
    await forest.batchedRun([...tasks, 'How do I get over jet lag?']);
    // Agent prompts and known tasks come from the cache: only the new task is embedded.
    expect(calls.map((c) => c.length)).toEqual([9 + referenceTexts.length, 2, 1]);
  });

  it('runs at most maxWorkers tasks at once', async () => {
    const gate = new Gate();
    const waiting = (name: string) =>
      new ScriptedModel([], {
        fallback: respond(async () => {
          await gate.wait();
          return `${name} answers`;
        }),
      });
    const forest = new ForestSwarm({ trees: routingTrees(waiting) });
    const tasks = [
      'How many calories should I eat to lose weight?',
      'Create a 16 week marathon training program.',
      'Is taking melatonin every night safe?',
    ];
    const done = forest.batchedRun(tasks, { maxWorkers: 2 });
    await gate.until(2);
    expect(gate.waiting).toBe(2);
    gate.open();
    const settled = await done;
    expect(settled.every((s) => s.status === 'fulfilled')).toBe(true);
  });

  it('runs every task of a batch at once by default, so the batch takes as long as its slowest task', async () => {
    const gate = new Gate();
    const waiting = (name: string) =>
      new ScriptedModel([], {
        fallback: respond(async () => {
          await gate.wait();
          return `${name} answers`;
        }),
      });
    const forest = new ForestSwarm({ trees: routingTrees(waiting) });
    const done = forest.batchedRun([
      'How many calories should I eat to lose weight?',
      'Create a 16 week marathon training program.',
      'Is taking melatonin every night safe?',
    ]);
    await gate.until(3);
    expect(gate.waiting).toBe(3);
    gate.open();
    expect((await done).every((s) => s.status === 'fulfilled')).toBe(true);
  });

  it('rejects a maxWorkers below 1', async () => {
    await expect(financialForest().batchedRun(['x'], { maxWorkers: 0 })).rejects.toThrow(
      /maxWorkers must be an integer >= 1/,
    );
  });
});
