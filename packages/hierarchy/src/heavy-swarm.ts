import {
  Agent,
  BaseTopology,
  budgetStop,
  ConfigError,
  concurrencyOption,
  errorMessage,
  type GuardrailOptions,
  integerOption,
  isRunStop,
  type Member,
  type Message,
  type ModelLike,
  mapSettled,
  memberTurn,
  type RunContext,
  type RunOptions,
  runMember,
  runTopology,
  settledStop,
  type TopologyResult,
  timeoutOption,
  validateMembers,
  validateOutputType,
} from '@swarm/core';
import { z } from 'zod';
import { answerSchema, Head, type HeadLike } from './head.js';
import { type HeavyRole, type HeavyRoleSet, heavyRoleSets } from './heavy-roles.js';
import { memberDescription } from './hierarchy-turns.js';
import { finishedOutputs } from './order-result.js';
import { withTaskTimeout } from './task-timeout.js';

/** Options of a HeavySwarm: a model and role data, or your own members; plus who asks and who synthesizes. */
export interface HeavySwarmOptions<TOutput = string> extends GuardrailOptions {
  name?: string;
  /** Builds the role agents, and is the question writer and synthesizer unless those are given. */
  model?: ModelLike;
  /** The roles, as data or a preset name (default `'default'`: research, analysis, alternatives, verification). */
  roles?: HeavyRole[] | keyof typeof heavyRoleSets;
  /** Your own members to answer instead of role agents built from `model` (each one is a role, by name). */
  agents?: readonly Member[];
  /** Writes one question per role (default: `model`): an Agent (its tools, guardrails and settings hold), or a model. */
  questioner?: HeadLike;
  /**
   * Writes the answer from the roles' answers (default: `model`, with the role set's synthesis
   * instructions). An Agent with its own `outputType` types the last synthesis (`finalOutput`) as
   * the swarm's `outputType` would; a questioner Agent with an outputType that is not also the
   * synthesizer is a ConfigError.
   */
  synthesizer?: HeadLike;
  /** Rounds of questions, answers and synthesis (default 1); later rounds improve on the last synthesis. */
  maxLoops?: number;
  /** Time one role may take to answer before it is cancelled (default 300 000 ms). */
  timeoutMs?: number;
  /** Roles answering at once (default: all). */
  maxWorkers?: number;
  /**
   * Invalid question sets (and typed syntheses) sent back for repair (default 2, or a head Agent's
   * own `maxOutputRepairs`; given, it replaces that).
   */
  maxRepairs?: number;
  /** The last loop's synthesis as a validated object of this `z.object(...)` (`result.finalOutput`). */
  outputType?: z.ZodType<TOutput>;
}

/** One role's answer in one loop. */
export interface RoleAnswer {
  role: string;
  question: string;
  status: 'done' | 'failed';
  output?: string;
  error?: string;
}

/** One loop of a HeavySwarm: the questions by role, the answers in role order, the synthesis. */
export interface HeavyLoop {
  questions: Record<string, string>;
  answers: RoleAnswer[];
  synthesis?: string;
}

/** The result of a HeavySwarm run: the last synthesis, and every loop. */
export interface HeavySwarmResult<TOutput = string> extends TopologyResult {
  /** With `outputType`: the last synthesis as that object (absent after a budget stop). */
  finalOutput?: TOutput;
  loops: HeavyLoop[];
}

const GENERIC_SYNTHESIZER = {
  name: 'synthesis',
  instructions:
    'You integrate the answers of several specialists into one comprehensive, well-organized answer, resolving their disagreements.',
};

const QUESTIONER_INSTRUCTIONS =
  'You decompose a task into one precise question per specialist role, so that their answers together cover it.';

/**
 * Seed 001's HeavySwarm: one structured call writes a question for each role, the roles answer
 * concurrently (each under a time limit enforced by cancellation), and a synthesizer integrates
 * their answers; later loops ask questions that improve on the last synthesis.
 */
export class HeavySwarm<TOutput = string> extends BaseTopology<HeavySwarmResult<TOutput>> {
  readonly type = 'HeavySwarm';
  readonly name: string;
  readonly roles: readonly { name: string; description: string; member: Member }[];
  readonly maxLoops: number;
  readonly timeoutMs: number;
  readonly maxWorkers: number;
  readonly maxRepairs: number;
  readonly #questioner: Head;
  readonly #synthesizer: Head;
  #questionSchema: z.ZodObject<{ questions: z.ZodObject<Record<string, z.ZodString>> }> | undefined;

  readonly #outputType: z.ZodObject | undefined;

  constructor(options: HeavySwarmOptions<TOutput>) {
    super();
    const owner = 'HeavySwarm';
    this.name = options.name ?? owner;
    const set =
      options.agents === undefined ? roleSet(options.roles) : { roles: [], synthesizer: GENERIC_SYNTHESIZER };
    if (options.agents !== undefined && options.roles !== undefined) {
      throw new ConfigError(
        `${owner}: give roles (built over model) or agents (your own members), not both.`,
      );
    }
    if (options.agents !== undefined) {
      this.roles = validateMembers(options.agents, owner, { option: 'agents', min: 1 }).map((member) => ({
        name: member.name,
        description: memberDescription(member) ?? `The ${member.name} perspective.`,
        member,
      }));
    } else {
      if (options.model === undefined) {
        throw new ConfigError(`${owner}: give a model to build the role agents, or your own agents.`);
      }
      const model = options.model;
      this.roles = set.roles.map((r) => ({
        name: r.name,
        description: r.description,
        member: new Agent({ name: r.name, description: r.description, instructions: r.instructions, model }),
      }));
    }
    this.maxRepairs = integerOption(owner, 'maxRepairs', options.maxRepairs, 2, 0);
    const synthesizer = options.synthesizer ?? options.model;
    const head = (who: HeadLike | undefined, option: string, name: string, instructions: string) => {
      if (who === undefined)
        throw new ConfigError(`${owner}: give ${option} (an Agent or a model), or a model.`);
      return new Head(who, {
        owner,
        option,
        name,
        instructions,
        answers: who === synthesizer,
        ...(options.maxRepairs !== undefined && { maxRepairs: this.maxRepairs }),
      });
    };
    this.#questioner = head(
      options.questioner ?? options.model,
      'questioner',
      'questioner',
      QUESTIONER_INSTRUCTIONS,
    );
    this.#synthesizer = head(synthesizer, 'synthesizer', set.synthesizer.name, set.synthesizer.instructions);
    this.maxLoops = integerOption(owner, 'maxLoops', options.maxLoops, 1, 1);
    this.timeoutMs = timeoutOption(owner, 'timeoutMs', options.timeoutMs, 300_000);
    this.maxWorkers = concurrencyOption(owner, 'maxWorkers', options.maxWorkers);
    this.#outputType = answerSchema(
      owner,
      'synthesizer',
      validateOutputType(options.outputType, owner),
      this.#synthesizer,
    );
    this.withGuardrails(options);
  }

  /** Runs the loops: questions, concurrent answers, synthesis. */
  run(task: string, options: RunOptions = {}): Promise<HeavySwarmResult<TOutput>> {
    return runTopology<HeavySwarmResult<TOutput>>(this, { task }, options, async (context) => {
      const loops: HeavyLoop[] = [];
      let finalOutput: TOutput | undefined;
      try {
        for (let loop = 1; loop <= this.maxLoops; loop++) {
          const questions = await this.#ask(task, loops.at(-1)?.synthesis, loop, context);
          const record: HeavyLoop = { questions, answers: [] };
          loops.push(record);
          await this.#answer(task, record, loop, context);
          // Only the last synthesis is the answer, so only it is typed; earlier ones are prose to improve on.
          const turns = synthesisTurns(task, record.answers);
          const synthesis =
            loop === this.maxLoops
              ? await this.#synthesizer.final(turns, {
                  context,
                  purpose: 'synthesis',
                  outputType: this.#outputType,
                })
              : { output: await this.#synthesizer.answer(turns, { context, purpose: 'synthesis' }) };
          record.synthesis = synthesis.output;
          finalOutput = synthesis.finalOutput as TOutput | undefined;
          context.emit({
            type: 'heavy.synthesis',
            agent: this.#synthesizer.name,
            loop,
            output: record.synthesis,
          });
        }
        return {
          output: loops.at(-1)?.synthesis ?? '',
          ...(finalOutput !== undefined && { finalOutput }),
          loops,
        };
      } catch (error) {
        const reason = budgetStop(error);
        const answer = reason && answerFromLoops(loops);
        if (!reason || answer === undefined) throw error;
        return { output: answer, loops, interrupted: true, interruptionReason: reason };
      }
    });
  }

  // One structured call: a question for every role, keyed by role name.
  async #ask(task: string, previous: string | undefined, loop: number, context: RunContext) {
    // Made once: core converts a schema to JSON Schema once per schema object.
    this.#questionSchema ??= z.object({
      questions: z.object(
        Object.fromEntries(this.roles.map((r) => [r.name, z.string().min(1).describe(r.description)])),
      ),
    });
    const schema = this.#questionSchema;
    const roster = this.roles.map((r) => `- ${r.name}: ${r.description}`).join('\n');
    const messages: Message[] = [
      { role: 'user', content: `${task}\n\nWrite one question for each of these roles:\n${roster}` },
      ...(previous !== undefined
        ? [
            memberTurn(this.#synthesizer.name, previous),
            {
              role: 'user' as const,
              content: `That was the answer of round ${loop - 1}. Ask questions that find what it misses or gets wrong.`,
            },
          ]
        : []),
    ];
    const { questions } = await this.#questioner.object(schema, messages, { context, purpose: 'questions' });
    const byRole = Object.fromEntries(this.roles.map((r) => [r.name, String(questions[r.name])]));
    context.emit({ type: 'heavy.questions', agent: this.#questioner.name, loop, questions: byRole });
    return byRole;
  }

  // Every role answers its question at once, each under its own time limit; one failure keeps the rest.
  async #answer(task: string, record: HeavyLoop, loop: number, context: RunContext): Promise<void> {
    const settled = await mapSettled(
      this.roles,
      (r) =>
        withTaskTimeout(context, `role ${r.name}`, this.timeoutMs, async (roleContext) => {
          const input = [
            { role: 'user' as const, content: task },
            memberTurn(this.#questioner.name, `Your question (${r.name}): ${record.questions[r.name]}`),
          ];
          return (await runMember(r.member, input, roleContext)).output;
        }),
      { concurrency: this.maxWorkers, signal: context.signal },
    );
    record.answers = this.roles.map((r, i) => {
      const outcome = settled[i]!;
      const question = record.questions[r.name] ?? '';
      return outcome.status === 'fulfilled'
        ? { role: r.name, question, status: 'done', output: outcome.value }
        : {
            role: r.name,
            question,
            status: 'failed',
            // A role the run refused (budget spent, aborted) did not fail on its own.
            error: isRunStop(outcome.reason)
              ? `not run: ${errorMessage(outcome.reason)}`
              : errorMessage(outcome.reason),
          };
    });
    for (const answer of record.answers) {
      context.emit({
        type: 'heavy.answer',
        agent: answer.role,
        loop,
        status: answer.status,
        ...(answer.error !== undefined && { error: answer.error }),
      });
    }
    // A refused role stops the run once every answer is recorded: an abort is rethrown first.
    const stop = settledStop(settled);
    if (stop) throw stop;
  }
}

function roleSet(roles: HeavySwarmOptions['roles']): HeavyRoleSet {
  if (roles === undefined) return heavyRoleSets.default;
  if (typeof roles === 'string') {
    const set = heavyRoleSets[roles];
    if (!set) {
      throw new ConfigError(
        `HeavySwarm: roles must be an array of roles or one of ${Object.keys(heavyRoleSets).join(', ')} (got ${JSON.stringify(roles)}).`,
      );
    }
    return set;
  }
  const names = new Set<string>();
  if (!Array.isArray(roles) || roles.length === 0) {
    throw new ConfigError(
      'HeavySwarm: roles must be a non-empty array of { name, description, instructions }.',
    );
  }
  for (const r of roles) {
    if (typeof r?.name !== 'string' || r.name.trim() === '' || typeof r.instructions !== 'string') {
      throw new ConfigError('HeavySwarm: every role needs a name and instructions.');
    }
    if (names.has(r.name)) throw new ConfigError(`HeavySwarm: two roles are named "${r.name}".`);
    names.add(r.name);
  }
  return { roles, synthesizer: GENERIC_SYNTHESIZER };
}

function synthesisTurns(task: string, answers: readonly RoleAnswer[]): Message[] {
  return [
    { role: 'user', content: task },
    ...answers.map((a) =>
      memberTurn(
        a.role,
        a.status === 'done' ? (a.output ?? '') : `FAILED to answer: ${a.error ?? 'unknown error'}`,
      ),
    ),
    {
      role: 'user',
      content:
        'Integrate these answers into one comprehensive answer to the task. Where a role failed, say what is missing.',
    },
  ];
}

// After a budget stop: the latest synthesis (a whole answer), or else the first loop's finished answers.
function answerFromLoops(loops: readonly HeavyLoop[]): string | undefined {
  const synthesis = loops.findLast((loop) => loop.synthesis !== undefined)?.synthesis;
  if (synthesis !== undefined) return synthesis;
  return finishedOutputs((loops.at(-1)?.answers ?? []).map((a) => ({ ...a, by: a.role })));
}
