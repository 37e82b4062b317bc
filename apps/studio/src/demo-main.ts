// `pnpm studio`: the studio on a fresh folder of demo runs, offline (scripted models, no key).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resumeDemo, writeDemoJournal } from './demo.js';
import { startStudio } from './server.js';

const dir = mkdtempSync(join(tmpdir(), 'swarm-studio-demo-'));
await writeDemoJournal(dir);
const port = process.env.PORT === undefined ? 4173 : Number(process.env.PORT);
const studio = await startStudio({ journals: [dir], port, resume: resumeDemo });
process.stdout.write(`swarm studio on the demo runs of ${dir}\n\n  ${studio.url}\n\nCtrl-C stops it.\n`);
