import { errorMessage, SwarmError, type SwarmEvent, type TopologyResult } from '@swarm/core';
import { loadSwarmSpec, SwarmSpecError } from '@swarm/router';
import { CliError } from './cli-error.js';
import { defaultModel, noModelHelp } from './default-model.js';
import { toJson } from './json-output.js';
import { type OutputFile, outputFileProblems, writeOutput } from './output-path.js';
import { progress } from './progress.js';
import { topologies } from './registry.js';
import { htmlReport } from './report/html-report.js';
import { readSpecFile } from './spec-file.js';
import { builtinTools } from './tools.js';

/** Flags of `swarm run`. */
export interface RunFlags {
  task?: string;
  model?: string;
  json?: boolean;
  trace?: string;
  report?: string;
  quiet?: boolean;
}

/**
 * `swarm run <spec> [task]`: builds the spec's topology, runs the task, prints the answer, then
 * writes the trace and the report. Output paths are checked before the first model call, and the
 * answer is printed before any file is written, so a bad path never costs a run or its answer.
 */
export async function runCommand(
  specPath: string,
  flags: RunFlags,
  out: NodeJS.WritableStream,
): Promise<void> {
  const trace: OutputFile | undefined =
    flags.trace === undefined ? undefined : { option: '--trace', path: flags.trace };
  const report: OutputFile | undefined =
    flags.report === undefined ? undefined : { option: '--report', path: flags.report };
  const unwritable = outputFileProblems([trace, report].filter((o) => o !== undefined));
  if (unwritable.length > 0) throw new CliError(unwritable.join('\n'), 2);
  const file = readSpecFile(specPath);
  const data = file.data as { task?: unknown; agents?: { model?: unknown }[] };
  const task = flags.task ?? (typeof data.task === 'string' ? data.task : undefined);
  if (!task?.trim()) {
    throw new CliError(
      `${file.where('task')}: no task: give one after the spec path, with --task, or as task: in the spec`,
      2,
    );
  }
  const needsDefault = !Array.isArray(data.agents) || data.agents.some((a) => typeof a?.model !== 'string');
  const fallback = needsDefault ? await defaultModel(flags.model) : undefined;
  if (needsDefault && !fallback) throw new CliError(noModelHelp, 2);

  let loaded: ReturnType<typeof loadSwarmSpec>;
  try {
    loaded = loadSwarmSpec(file.data, {
      topologies,
      tools: builtinTools,
      ...(fallback && { defaultModel: fallback.model }),
    });
  } catch (error) {
    if (error instanceof SwarmSpecError) {
      throw new CliError(
        error.issues
          .map((i) => {
            // One line per issue: a message's drawing of the place (a caret under a flow) is
            // replaced by the exact line and column it points at.
            const [first = ''] = i.message.split('\n');
            const column = /\bat column (\d+)\b/.exec(first)?.[1];
            const where = file.where(i.path, column === undefined ? undefined : Number(column));
            return `${where}: ${i.path ? `${i.path}: ` : ''}${first.replace(/:$/, '')}`;
          })
          .join('\n'),
        2,
      );
    }
    throw error;
  }

  const events: SwarmEvent[] = [];
  const live = flags.quiet ? undefined : progress();
  let result: TopologyResult | undefined;
  let failure: unknown;
  try {
    result = await loaded.topology.run(task, {
      onEvent: (event) => {
        events.push(event);
        live?.onEvent(event);
      },
    });
  } catch (error) {
    failure = error;
  } finally {
    live?.stop();
  }

  // The answer first: whatever happens to the files below, the run's answer is not lost.
  if (result) out.write(flags.json ? `${toJson(result)}\n` : `${result.output}\n`);
  const notWritten = [
    trace && writeOutput(trace, `${toJson(events)}\n`),
    report &&
      writeOutput(
        report,
        htmlReport({
          title: `${loaded.spec.name ?? loaded.descriptor.type} — swarm run`,
          task,
          ...(result && { result }),
          ...(failure !== undefined && { error: errorMessage(failure) }),
          events,
        }),
      ),
  ].filter((problem) => problem !== undefined);
  if (failure !== undefined) {
    const code = SwarmError.isInstance(failure) ? `${failure.code}: ` : '';
    throw new CliError([`the run failed: ${code}${errorMessage(failure)}`, ...notWritten].join('\n'), 1);
  }
  if (notWritten.length > 0) throw new CliError(notWritten.join('\n'), 1);
}
