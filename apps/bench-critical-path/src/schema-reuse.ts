import {
  Agent,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type Topology,
  toJsonSchema,
} from '@swarm/core';
import { autoModel, type ScriptedModel } from '@swarm/core/testing';
import { MultiAgentRouter } from '@swarm/router';
import { TreeOfThoughts } from '@swarm/tot';
import { z } from 'zod';
import { branching } from './cases.js';

/**
 * A model that counts, per run, the JSON Schema objects it is sent for the first time (core
 * converts a zod schema once per schema object and hands out the same frozen object afterwards,
 * so a new object is one conversion) and the calls that force `tool`.
 */
export class SchemaWatch {
  readonly #seen = new WeakSet<object>();
  conversions = 0;
  forced = 0;

  constructor(readonly tool: string) {}

  wrap(inner: ScriptedModel): Model {
    return {
      id: inner.id,
      generate: (request: ModelRequest): Promise<ModelResponse> => {
        const choice = request.toolChoice;
        if (typeof choice === 'object' && choice.name === this.tool) this.forced += 1;
        for (const tool of request.tools ?? []) {
          if (this.#seen.has(tool.parameters)) continue;
          this.#seen.add(tool.parameters);
          this.conversions += 1;
        }
        return inner.generate(request);
      },
    };
  }
}

/**
 * A topology whose structured-output schema used to be built per call or per run (issue 31 item 7):
 * the function its calls force, and a zod schema equal to the one it built each time.
 */
export interface SchemaCase {
  tool: string;
  make: (watch: SchemaWatch) => Topology;
  /** The schema as the old code built it for each forced call. */
  schema: () => z.ZodType;
}

const members = ['planner', 'shopper', 'cook'];

/** MultiAgentRouter (its route schema, once per run before) and TreeOfThoughts (its propose schema, once per call before). */
export const schemaCases: Record<string, SchemaCase> = {
  MultiAgentRouter: {
    tool: 'route',
    make: (watch) =>
      new MultiAgentRouter({
        model: watch.wrap(autoModel()),
        agents: members.map((name) => new Agent({ name, model: watch.wrap(autoModel()) })),
      }),
    schema: () =>
      z.object({
        routes: z
          .array(
            z.object({
              agentName: z.enum(members as [string, ...string[]]),
              task: z.string().min(1).describe('The task for this member, written out in full.'),
              reason: z.string().describe('Why this member.'),
            }),
          )
          .min(1)
          .max(members.length),
      }),
  },
  TreeOfThoughts: {
    tool: 'propose_thoughts',
    make: (watch) =>
      new TreeOfThoughts({ model: watch.wrap(autoModel({ override: branching })) }).asTopology(),
    schema: () =>
      z.object({
        thoughts: z
          .array(
            z.object({
              thought: z.string().min(1).describe('The next step, self-contained.'),
              isFinal: z.boolean().describe('True only if this step completes the task.'),
            }),
          )
          .min(1)
          .describe('Exactly 3 distinct alternative next steps.'),
      }),
  },
};

/** Schema conversions and CPU per run, with the schemas made once (now) and made again for every forced call (before). */
export interface SchemaReuse {
  conversionsCached: number;
  conversionsUncached: number;
  cpuCachedUs: number;
  cpuUncachedUs: number;
  /** Median over rounds of uncached CPU / cached CPU, measured in alternating rounds. */
  cpuRatio: number;
}

const task = 'Plan a week of meals for a family of four on a budget.';

/**
 * Measures one case: the same instance runs the same task on both sides; the uncached side also
 * converts a freshly built, identical schema for every call that forced the function, which is
 * the work the per-run schemas made core do. `rounds` alternating rounds of `perRound` runs.
 */
export async function measureSchemaReuse(
  testCase: SchemaCase,
  rounds = 9,
  perRound = 10,
): Promise<SchemaReuse> {
  const watch = new SchemaWatch(testCase.tool);
  const topology = testCase.make(watch);
  await topology.run(task); // each schema's one conversion, before anything is counted
  const side = async (uncached: boolean) => {
    const conversions = watch.conversions;
    const forced = watch.forced;
    const start = process.cpuUsage();
    for (let i = 0; i < perRound; i++) {
      const before = watch.forced;
      await topology.run(task);
      if (uncached) for (let c = before; c < watch.forced; c++) toJsonSchema(testCase.schema());
    }
    const used = process.cpuUsage(start);
    const converted = watch.conversions - conversions + (uncached ? watch.forced - forced : 0);
    return { cpu: (used.user + used.system) / perRound, conversions: converted / perRound };
  };
  await side(true);
  const ratios: number[] = [];
  const cpu = { cached: [] as number[], uncached: [] as number[] };
  const conversions = { cached: 0, uncached: 0 };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ([false, true] as const) : ([true, false] as const);
    const got = { cached: 0, uncached: 0 };
    for (const uncached of order) {
      const m = await side(uncached);
      const key = uncached ? 'uncached' : 'cached';
      got[key] = m.cpu;
      conversions[key] = m.conversions;
    }
    cpu.cached.push(got.cached);
    cpu.uncached.push(got.uncached);
    ratios.push(got.uncached / got.cached);
  }
  return {
    conversionsCached: conversions.cached,
    conversionsUncached: conversions.uncached,
    cpuCachedUs: median(cpu.cached),
    cpuUncachedUs: median(cpu.uncached),
    cpuRatio: median(ratios),
  };
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
