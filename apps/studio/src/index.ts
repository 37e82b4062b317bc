export { resumeDemo, runDemo, writeDemoJournal } from './demo.js';
export { studioPage } from './page.js';
export { listRuns, type RunDetail, type RunState, type RunSummary, readRun } from './runs.js';
export { type ResumeRun, type RunRef, type Studio, type StudioOptions, startStudio } from './server.js';
