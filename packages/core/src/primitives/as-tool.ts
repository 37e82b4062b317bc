import { z } from 'zod';
import type { Runnable } from '../contracts/run.js';
import { ConfigError } from '../kernel/errors.js';
import { type Tool, tool } from './tool.js';

/** Options of `asTool`: how the model sees the tool, and how its arguments become the task. */
export interface AsToolOptions<P extends z.ZodObject = z.ZodObject> {
  /** Tool name (default: the member's name with anything but letters, digits, `_` and `-` as `_`). */
  name?: string;
  /** What the tool is for (default: the agent's description, or a line naming the topology). */
  description?: string;
  /** Parameters the model fills in (default `{ task: string }`). */
  input?: P;
  /** Turns the validated arguments into the nested run's task (default: `task`, else the JSON). */
  toTask?: (args: z.output<P>) => string;
}

const defaultInput = z.object({ task: z.string().describe('The task, written out in full.') });

/**
 * Any Agent or Topology as a Tool. Each call runs it nested in the calling run (`ctx.run` is the
 * parent): one budget, one trace, totals added up. Its answer is the tool result; its failure is a
 * tool error the calling model sees.
 */
export function asTool<P extends z.ZodObject = typeof defaultInput>(
  runnable: Runnable,
  options: AsToolOptions<P> = {},
): Tool<P, string> {
  if (!runnable || typeof runnable.run !== 'function') {
    throw new ConfigError('asTool: give an Agent or a Topology.');
  }
  const name = options.name ?? runnable.name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  const description =
    options.description ??
    (typeof runnable.type === 'string'
      ? `Hands a task to the ${runnable.type} "${runnable.name}" and returns its answer.`
      : (runnable.description ?? `Hands a task to the agent "${runnable.name}" and returns its answer.`));
  const parameters = (options.input ?? defaultInput) as P;
  const toTask =
    options.toTask ??
    ((args: z.output<P>) => {
      const task = (args as { task?: unknown }).task;
      return typeof task === 'string' && Object.keys(args as object).length === 1
        ? task
        : JSON.stringify(args);
    });
  return tool({
    name,
    description,
    parameters,
    // The nested run's own calls are journaled: on a resume it runs again and replays them.
    journaled: false,
    async execute(args, ctx) {
      const result = await runnable.run(toTask(args), { parent: ctx.run, parentToolCallId: ctx.toolCallId });
      return result.output;
    },
  });
}
