import { basename } from 'node:path';
import { Limiter } from '@swarm/core';
import {
  type Candidate,
  type Dataset,
  DatasetError,
  exactMatch,
  formatTable,
  htmlReport,
  loadDataset,
  normalizedMatch,
  runExperiment,
} from '@swarm/evals';
import { CliError } from './cli-error.js';
import { loadSpec } from './load-spec.js';
import { type OutputFile, outputFileProblems, writeOutput } from './output-path.js';

/** Flags of `swarm eval`. */
export interface EvalFlags {
  dataset?: string;
  /** Comma-separated models: every spec runs once per model (for agents whose spec names none). */
  models?: string;
  model?: string;
  json?: boolean;
  report?: string;
  quiet?: boolean;
}

/**
 * `swarm eval <spec...> --dataset <file.jsonl>`: every spec's topology (times every model of
 * `--models`) is a candidate, run on every item of the dataset and scored by exact and normalised
 * match against `expected`; prints the table (or `--json`), writes `--report` as HTML. Every
 * problem of the specs, the dataset and the paths is reported before the first call.
 */
export async function evalCommand(
  specPaths: readonly string[],
  flags: EvalFlags,
  out: NodeJS.WritableStream,
): Promise<void> {
  if (specPaths.length === 0)
    throw new CliError('swarm eval needs a spec file: swarm eval <spec.yaml> --dataset <file.jsonl>', 2);
  if (!flags.dataset)
    throw new CliError('swarm eval needs --dataset <file.jsonl> (one {"input", "expected"} per line)', 2);
  const report: OutputFile | undefined =
    flags.report === undefined ? undefined : { option: '--report', path: flags.report };
  const problems = outputFileProblems(report ? [report] : []);
  let dataset: Dataset | undefined;
  try {
    dataset = await loadDataset(flags.dataset);
  } catch (error) {
    if (!(error instanceof DatasetError)) throw error;
    problems.push(error.message);
  }
  const models = flags.models
    ? flags.models
        .split(',')
        .map((m) => m.trim())
        .filter((m) => m !== '')
    : [flags.model];
  const candidates: Record<string, Candidate> = {};
  for (const specPath of specPaths) {
    for (const model of models) {
      const { loaded } = await loadSpec(specPath, { model, requireTask: false, problems });
      const name = `${basename(specPath).replace(/\.(ya?ml|json)$/, '')}${models.length > 1 || flags.models ? ` @ ${model}` : ''}`;
      candidates[name] = loaded.topology;
    }
  }
  if (problems.length > 0 || !dataset) throw new CliError(problems.join('\n'), 2);

  const bar = !flags.quiet && process.stderr.isTTY;
  const result = await runExperiment({
    dataset,
    candidates,
    scorers: [exactMatch(), normalizedMatch()],
    limiter: new Limiter({ concurrency: 8 }),
    ...(bar && {
      onProgress: (done: number, total: number) => {
        const width = 30;
        const filled = Math.round((done / total) * width);
        process.stderr.write(
          `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`,
        );
      },
    }),
  });
  out.write(flags.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatTable(result)}\n`);
  if (report) {
    const failed = writeOutput(report, htmlReport(result, { title: `swarm eval on ${flags.dataset}` }));
    if (failed) throw new CliError(failed);
  }
}
