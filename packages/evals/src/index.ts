export { type Dataset, dataset, type EvalItem, loadDataset, parseJsonl } from './dataset.js';
export { DatasetError, EvalAssertionError } from './errors.js';
export { type Baseline, baselineOf, expectBaselineFile, expectNoRegression, expectScore } from './expect.js';
export {
  type Candidate,
  type CandidateOutput,
  type CandidateSummary,
  type Comparison,
  type ExperimentOptions,
  type ExperimentResult,
  type Price,
  type RunRecord,
  runExperiment,
} from './experiment.js';
export { escapeHtml, htmlReport, paretoFront, type ReportOptions } from './report.js';
export {
  customScorer,
  exactMatch,
  jsonSchemaValid,
  judgeSchema,
  modelJudge,
  normalizedMatch,
  normalizeText,
  numericTolerance,
  regexMatch,
  type Score,
  type ScoreInput,
  type Scorer,
} from './scorers.js';
export {
  type MeanInterval,
  mean,
  meanInterval,
  type PairedTest,
  pairedPermutationTest,
  percentile,
  sampleSd,
  seededRandom,
  tQuantile975,
} from './stats.js';
export { formatTable } from './table.js';
