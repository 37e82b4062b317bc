/**
 * Throughput of @swarm/queue: 2,000 tasks of a 20 ms scripted model over 1, 2 and 4 worker
 * processes (8 jobs at once each), against the same tasks run in one process with the same number
 * of jobs at once. Prints jobs per second, the ratio to one process, the overhead per job, and the
 * Redis commands per job (INFO commandstats, everything: producer, workers, idle polling). The
 * last row reads every job's events (`job.events()`), so the workers publish them.
 *
 *   pnpm --filter @swarm/queue bench [--tasks 2000] [--latency 20] [--concurrency 8]
 *
 * Needs `redis-server` (Debian's package); the benchmark starts and stops its own.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mapSettled } from '@swarm/core';
import { Redis } from 'ioredis';
import { SwarmQueue } from '../src/index.js';
import { startRedisServer } from '../src/testing/index.js';
import { benchTeam } from './topologies.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const taskCount = flag('tasks', 2000);
const latencyMs = flag('latency', 20);
const concurrency = flag('concurrency', 8);
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

interface Row {
  label: string;
  slots: number;
  seconds: number;
  inProcessSeconds: number;
  commandsPerJob: number;
}

async function main(): Promise<void> {
  const redis = await startRedisServer();
  const tasks = Array.from({ length: taskCount }, (_, i) => `task ${i}`);
  const rows: Row[] = [];
  try {
    for (const [workers, watched] of [
      [1, false],
      [2, false],
      [4, false],
      [4, true],
    ] as const) {
      const slots = workers * concurrency;
      const inProcessSeconds = await inProcess(tasks, slots);
      const { seconds, commandsPerJob } = await overWorkers(tasks, workers, watched, redis.url);
      rows.push({
        label: `${workers} worker${workers > 1 ? 's' : ''}${watched ? ', events read' : ''}`,
        slots,
        seconds,
        inProcessSeconds,
        commandsPerJob,
      });
    }
  } finally {
    await redis.stop();
  }
  print(rows);
}

async function inProcess(tasks: string[], slots: number): Promise<number> {
  const team = benchTeam(latencyMs);
  const started = performance.now();
  const settled = await mapSettled(tasks, (task) => team.run(task), { concurrency: slots });
  check(
    settled.map((s) => (s.status === 'fulfilled' ? s.value.output : undefined)),
    tasks,
  );
  return (performance.now() - started) / 1000;
}

async function overWorkers(
  tasks: string[],
  count: number,
  watched: boolean,
  redisUrl: string,
): Promise<{ seconds: number; commandsPerJob: number }> {
  const name = `bench-${count}-${watched ? 'watched' : 'quiet'}`;
  const children = await Promise.all(Array.from({ length: count }, () => startWorker(name, redisUrl)));
  const queue = new SwarmQueue({ name, connection: redisUrl });
  const admin = new Redis(redisUrl);
  try {
    const commandsBefore = await commands(admin);
    const started = performance.now();
    // A worker that dies mid-run would leave the batch waiting for ever: stop the benchmark instead.
    let running = true;
    const died = Promise.race(children.map((child) => child.exited)).then((how) => {
      if (running) throw new Error(`a worker exited (${how}) during the run`);
      return [];
    });
    const run = async () =>
      watched
        ? await Promise.all(
            tasks.map(async (task) => {
              const job = await queue.enqueue('bench', task, { events: true });
              let last: string | undefined;
              for await (const event of job.events()) last = event.type;
              if (last !== 'run.end') throw new Error(`the trace of ${task} ended with ${last}`);
              return (await job.result()).output;
            }),
          )
        : (await queue.batchedRun('bench', tasks)).map((s) =>
            s.status === 'fulfilled' ? s.value.output : undefined,
          );
    const outputs = await Promise.race([run(), died]);
    running = false;
    const seconds = (performance.now() - started) / 1000;
    // Less the INFO call itself.
    const commandsPerJob = ((await commands(admin)) - commandsBefore - 1) / tasks.length;
    check(outputs, tasks);
    return { seconds, commandsPerJob };
  } finally {
    admin.disconnect();
    await queue.close();
    await Promise.all(children.map((child) => child.stop()));
  }
}

/** Every command Redis has run so far. */
async function commands(client: Redis): Promise<number> {
  const info = await client.info('commandstats');
  let total = 0;
  for (const match of info.matchAll(/calls=(\d+)/g)) total += Number(match[1]);
  return total;
}

function check(outputs: (string | undefined)[], tasks: string[]): void {
  const wrong = outputs.findIndex((output, i) => output !== `done: ${tasks[i]}`);
  if (wrong >= 0) throw new Error(`task ${wrong} came back as ${JSON.stringify(outputs[wrong])}`);
}

function startWorker(
  name: string,
  redisUrl: string,
): Promise<{ stop(): Promise<void>; exited: Promise<string> }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      here('../src/swarm-worker.ts'),
      here('./topologies.ts'),
      '--queue',
      name,
      '--redis',
      redisUrl,
      '--concurrency',
      String(concurrency),
    ],
    {
      cwd: here('..'),
      env: { ...process.env, BENCH_LATENCY_MS: String(latencyMs) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`)),
  );
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('swarm-worker: ready')) resolve({ stop, exited });
    });
    exited.then((how) => reject(new Error(`a worker exited (${how}) before it was ready:\n${output}`)));
  });
}

function print(rows: Row[]): void {
  const ideal = ((taskCount / concurrency) * latencyMs) / 1000;
  console.log(
    `@swarm/queue: ${taskCount} tasks, ${latencyMs} ms scripted model, ${concurrency} jobs at once per worker (ideal for 1 worker: ${ideal.toFixed(2)} s)\n`,
  );
  console.log(
    'setup                  | jobs/s (queue) | jobs/s (1 process) | queue / 1 process | vs 1 worker | overhead per job | Redis commands per job',
  );
  const base = rows[0]!;
  for (const row of rows) {
    const queueRate = taskCount / row.seconds;
    const localRate = taskCount / row.inProcessSeconds;
    // Slot-time each job spent beyond what the same job took in one process.
    const overheadMs = ((row.seconds - row.inProcessSeconds) * row.slots * 1000) / taskCount;
    console.log(
      [
        row.label.padEnd(22),
        queueRate.toFixed(0).padStart(14),
        localRate.toFixed(0).padStart(18),
        `${(queueRate / localRate).toFixed(2)}x`.padStart(17),
        `${(base.seconds / row.seconds).toFixed(2)}x`.padStart(11),
        `${overheadMs.toFixed(2)} ms`.padStart(16),
        row.commandsPerJob.toFixed(1).padStart(22),
      ].join(' | '),
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
