import type { z } from 'zod';
import type { Agent } from '../agent/agent.js';
import type { Usage } from '../contracts/model.js';
import { type GuardrailLike, type GuardrailOptions, validateGuardrails } from '../kernel/guardrail.js';
import type { RunOptions } from '../kernel/run-context.js';
import { type RunStream, runStream } from '../kernel/run-stream.js';
import { type AsToolOptions, asTool } from '../primitives/as-tool.js';
import type { Tool } from '../primitives/tool.js';

/** What every topology's result has. */
export interface TopologyResult {
  output: string;
  /** The validated object of the topology's `outputType`, where it takes one; else absent. */
  finalOutput?: unknown;
  usage: Usage;
  llmCalls: number;
  /** Of `llmCalls`, how many were answered from the run's journal (no provider call). */
  replayedCalls?: number;
  /** Of `llmCalls`, how many went to a model. */
  liveCalls?: number;
  interrupted?: boolean;
  interruptionReason?: string;
}

/** A way for agents to work together: `run` a task, or `stream` its events. */
export interface Topology<R extends TopologyResult = TopologyResult> {
  readonly type: string;
  readonly name: string;
  run(task: string, options?: RunOptions): Promise<R>;
  stream(task: string, options?: RunOptions): RunStream<R>;
}

/** The most model calls one run can make, or why no bound can be given. */
export type WorstCase = { maxCalls: number } | { maxCalls: undefined; reason: string };

/** How a router learns about a topology without depending on its package. */
export interface TopologyDescriptor<C = unknown> {
  /** For example `'HierarchicalSwarm'`. */
  type: string;
  /** One paragraph: when to use it (read by a router choosing automatically). */
  description: string;
  minAgents?: number;
  maxAgents?: number;
  /**
   * The config a spec file may give (plain JSON data only: no functions, no models), checked
   * before `create`. Loaders validate specs with it and report errors by path.
   */
  configSchema?: z.ZodType<C>;
  /** The worst case of one run with these agents and config: a cost preview before running. */
  worstCase?(agents: readonly Agent<unknown>[], config: C): WorstCase;
  create(agents: readonly Agent<unknown>[], config: C): Topology;
}

/** Base class giving any topology written as `run` its `stream` for free. */
export abstract class BaseTopology<R extends TopologyResult = TopologyResult> implements Topology<R> {
  abstract readonly type: string;
  abstract readonly name: string;
  abstract run(task: string, options?: RunOptions): Promise<R>;
  /** Checks of every run's task, beside its first model call (`runTopology` runs them). */
  inputGuardrails?: readonly GuardrailLike[];
  /** Checks of every run's output before it is returned. */
  outputGuardrails?: readonly GuardrailLike[];

  /**
   * Adds input and output guardrails to every run of this topology, nested runs (`asTool`,
   * members) included; a run's own `inputGuardrails` / `outputGuardrails` add to them. Returns it.
   */
  withGuardrails(options: GuardrailOptions): this {
    validateGuardrails(options, `${this.type} "${this.name}"`);
    this.inputGuardrails = [...(this.inputGuardrails ?? []), ...(options.inputGuardrails ?? [])];
    this.outputGuardrails = [...(this.outputGuardrails ?? []), ...(options.outputGuardrails ?? [])];
    return this;
  }

  stream(task: string, options?: RunOptions): RunStream<R> {
    return runStream((o) => this.run(task, o), options);
  }

  /** This topology as a tool an agent can call; each call is a run nested in the caller's. */
  asTool(options: AsToolOptions = {}): Tool {
    return asTool(this, options);
  }
}
