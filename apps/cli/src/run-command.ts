import {
  ConfigError,
  errorMessage,
  type Model,
  SwarmError,
  type SwarmEvent,
  type TopologyResult,
} from '@swarm/core';
import { type LoadedSwarm, loadSwarmSpec, type SpecIssue, SwarmSpecError } from '@swarm/router';
import { CliError } from './cli-error.js';
import { defaultModel, noModelHelp } from './default-model.js';
import { toJson } from './json-output.js';
import { type OutputFile, outputFileProblems, writeOutput } from './output-path.js';
import { progress } from './progress.js';
import { topologies } from './registry.js';
import { htmlReport } from './report/html-report.js';
import { readSpecFile, type SpecFile, type SpecPlace } from './spec-file.js';
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
  // Every problem of the spec and the command line is reported at once, before any call is made.
  const unwritable = outputFileProblems([trace, report].filter((o) => o !== undefined));
  let file: SpecFile;
  try {
    file = readSpecFile(specPath);
  } catch (error) {
    if (error instanceof CliError && unwritable.length > 0) {
      throw new CliError([error.message, ...unwritable].join('\n'), error.exitCode);
    }
    throw error;
  }
  const data = file.data as { task?: unknown; agents?: { model?: unknown }[] };
  const task = flags.task ?? (typeof data.task === 'string' ? data.task : '');
  const placed: PlacedProblem[] = [];
  if (!task.trim()) {
    placed.push({
      place: file.place('task'),
      text: 'no task: give one after the spec path, with --task, or as task: in the spec',
    });
  }
  const needsDefault = !Array.isArray(data.agents) || data.agents.some((a) => typeof a?.model !== 'string');
  const fallback = needsDefault ? await defaultModel(flags.model) : undefined;
  let loaded: LoadedSwarm | undefined;
  try {
    loaded = loadSwarmSpec(file.data, {
      topologies,
      tools: builtinTools,
      defaultModel: fallback?.model ?? noModel,
    });
  } catch (error) {
    if (!(error instanceof SwarmSpecError)) throw error;
    placed.push(...error.issues.map((issue) => placedIssue(file, issue)));
  }
  const problems = [
    ...placed
      .sort((a, b) => a.place.line - b.place.line || a.place.col - b.place.col)
      .map(({ place, text }) => `${file.path}:${place.line}:${place.col}: ${text}`),
    ...(needsDefault && !fallback ? [noModelHelp] : []),
    ...unwritable,
  ];
  if (problems.length > 0 || !loaded) throw new CliError(problems.join('\n'), 2);

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

/** One problem of a spec, at its place in the file. */
interface PlacedProblem {
  place: SpecPlace;
  text: string;
}

// One line per issue: a message's drawing of the place (a caret under a flow) is replaced by the
// exact line and column it points at.
function placedIssue(file: SpecFile, issue: SpecIssue): PlacedProblem {
  const [first = ''] = issue.message.split('\n');
  const column = /\bat column (\d+)\b/.exec(first)?.[1];
  return {
    place: file.place(issue.path, column === undefined ? undefined : Number(column)),
    text: `${issue.path ? `${issue.path}: ` : ''}${first.replace(/:$/, '')}`,
  };
}

// Stands in for the default model while a spec is checked with none configured, so the check goes
// on and reports every other problem; the command stops before any call, saying how to set one.
const noModel: Model = {
  id: 'unconfigured',
  generate: () => Promise.reject(new ConfigError(noModelHelp)),
};
