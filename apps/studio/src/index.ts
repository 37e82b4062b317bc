export { resumeDemo, runDemo, writeDemoJournal } from './demo.js';
export { studioPage } from './page.js';
export {
  listRuns,
  type RunActivity,
  type RunDetail,
  type RunState,
  type RunSummary,
  readRun,
  runState,
} from './runs.js';
export {
  type DrawRun,
  type ResumeRun,
  type RunRef,
  type Studio,
  type StudioOptions,
  startStudio,
} from './server.js';
export { JournalTail, type StudioEntry, type TailChange, Tails } from './tail.js';
