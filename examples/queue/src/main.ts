import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorMessage } from '@swarm/core';
import { startRedisServer } from '@swarm/queue/testing';
import { produce } from './producer.js';

// The whole example in one command: a throwaway redis-server, two worker processes and the
// producer. In production these are three separate things (see README.md).

// The package's `swarm-worker` bin, beside its entry point.
const bin = join(dirname(createRequire(import.meta.url).resolve('@swarm/queue')), 'swarm-worker.js');
const topologies = fileURLToPath(new URL('./topologies.ts', import.meta.url));

function startWorker(name: string, redisUrl: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', bin, topologies, '--queue', 'support', '--redis', redisUrl, '--concurrency', '2'],
    { env: { ...process.env, REDIS_URL: redisUrl, WORKER_NAME: name }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('swarm-worker: ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with code ${code}`)));
  });
}

async function main(): Promise<void> {
  const redis = await startRedisServer();
  console.log(`redis-server on ${redis.url} (throwaway)`);
  const workers: ChildProcess[] = [];
  try {
    workers.push(
      ...(await Promise.all([startWorker('worker A', redis.url), startWorker('worker B', redis.url)])),
    );
    console.log('two worker processes ready\n');
    await produce(redis.url);
  } finally {
    // SIGTERM lets a worker finish its running jobs before it exits.
    await Promise.all(
      workers.map((child) => {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        return exited;
      }),
    );
    await redis.stop();
  }
}

main().catch((error: unknown) => {
  console.error(errorMessage(error));
  process.exit(1);
});
