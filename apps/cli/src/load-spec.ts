import { ConfigError, type Model } from '@swarm/core';
import { type LoadedSwarm, loadSwarmSpec, type SpecIssue, SwarmSpecError } from '@swarm/router';
import { CliError } from './cli-error.js';
import { type DefaultModel, defaultModel, noModelHelp } from './default-model.js';
import { topologies } from './registry.js';
import { readSpecFile, type SpecFile, type SpecPlace } from './spec-file.js';
import { builtinTools } from './tools.js';

/** What `loadSpec` needs besides the path. */
export interface LoadSpecOptions {
  /** The task given on the command line (else the spec's `task:`). */
  task?: string | undefined;
  /** `--model`: the model of agents whose spec names none. */
  model?: string | undefined;
  /** A run needs a task; a server (`swarm mcp`) gets one per call. */
  requireTask: boolean;
  /** The command line's own problems, reported with the spec's. */
  problems: readonly string[];
}

/** A spec file read, checked and built. */
export interface LoadedSpec {
  file: SpecFile;
  loaded: LoadedSwarm;
  /** The task to run ('' when none is needed and none was given). */
  task: string;
  /** The default model, when an agent of the spec names none. */
  fallback: DefaultModel | undefined;
}

/**
 * Reads a spec file and builds its topology, reporting every problem at once (the spec's, each at
 * its `file:line:col`, with the command line's) as one CliError with exit code 2, before any call.
 */
export async function loadSpec(specPath: string, options: LoadSpecOptions): Promise<LoadedSpec> {
  let file: SpecFile;
  try {
    file = readSpecFile(specPath);
  } catch (error) {
    if (error instanceof CliError && options.problems.length > 0) {
      throw new CliError([error.message, ...options.problems].join('\n'), error.exitCode);
    }
    throw error;
  }
  const data = file.data as { task?: unknown; agents?: { model?: unknown }[] };
  const task = options.task ?? (typeof data.task === 'string' ? data.task : '');
  const placed: PlacedProblem[] = [];
  if (options.requireTask && !task.trim()) {
    placed.push({
      place: file.place('task'),
      text: 'no task: give one after the spec path, with --task, or as task: in the spec',
    });
  }
  const needsDefault = !Array.isArray(data.agents) || data.agents.some((a) => typeof a?.model !== 'string');
  const fallback = needsDefault ? await defaultModel(options.model) : undefined;
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
    ...options.problems,
  ];
  if (problems.length > 0 || !loaded) throw new CliError(problems.join('\n'), 2);
  return { file, loaded, task, fallback };
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
