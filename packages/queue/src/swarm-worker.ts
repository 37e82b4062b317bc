#!/usr/bin/env node
import { errorMessage } from '@swarm/core';
import { createWorker } from './create-worker.js';
import { loadTopologies, parseWorkerArgs, workerUsage } from './worker-cli.js';

// `swarm-worker <module> --queue <name>`: one worker process; scale out by starting more.
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${workerUsage}\n`);
    return;
  }
  const command = parseWorkerArgs(args);
  const topologies = await loadTopologies(command.module);
  const worker = createWorker({ ...command.options, topologies });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`swarm-worker: ${signal}, finishing running jobs\n`);
    worker.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`swarm-worker: ${errorMessage(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  await worker.ready();
  process.stdout.write(
    `swarm-worker: ready on queue "${worker.name}" with ${Object.keys(topologies).join(', ')} (pid ${process.pid})\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${errorMessage(error)}\n`);
  process.exit(1);
});
