import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError, type Topology } from '@swarm/core';
import type { RateLimit, SwarmWorkerOptions } from './create-worker.js';

/** How to start `swarm-worker`, printed by `--help` and with every usage error. */
export const workerUsage = `Usage: swarm-worker <module> --queue <name> [options]

Loads <module> (its default export, or its export \`topologies\`: an object of named topologies)
and runs the jobs of queue <name> with them until SIGTERM or SIGINT, which finish the running
jobs first. Start as many as you need, on any machine that reaches Redis.

Options:
  --queue <name>             the queue's name, as the producer's SwarmQueue has it (env SWARM_QUEUE)
  --redis <url>              redis://host:port (env REDIS_URL; default redis://127.0.0.1:6379)
  --concurrency <n>          jobs run at once by this worker (default 1)
  --rate-limit <max>/<ms>    at most <max> jobs per <ms> milliseconds across all workers
  --lock-duration <ms>       a dead worker's jobs are taken over after this (default 30000)
  --stalled-interval <ms>    how often to look for a dead worker's jobs (default 30000)
  --no-events                do not publish run events (job.events() then stays empty)
  --no-journal               run jobs without a Redis journal: a job taken over or retried starts
                             over, and a run that pauses for approval fails its job`;

/** The worker options given on the command line, and the module that holds the topologies. */
export interface WorkerCommand {
  module: string;
  options: Omit<SwarmWorkerOptions, 'topologies'>;
}

/** Reads `swarm-worker`'s arguments; a usage mistake is a `ConfigError` naming the option. */
export function parseWorkerArgs(args: string[], env: NodeJS.ProcessEnv = process.env): WorkerCommand {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    throw new ConfigError(`swarm-worker: ${(error as Error).message}\n\n${workerUsage}`, { cause: error });
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) {
    throw new ConfigError(`swarm-worker: give exactly one module of topologies.\n\n${workerUsage}`);
  }
  const name = values.queue ?? env.SWARM_QUEUE;
  if (!name) throw new ConfigError(`swarm-worker: --queue is required.\n\n${workerUsage}`);
  return {
    module: positionals[0]!,
    options: {
      name,
      connection: values.redis ?? env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      ...(values.concurrency !== undefined && { concurrency: integer(values.concurrency, '--concurrency') }),
      ...(values['rate-limit'] !== undefined && { rateLimit: rateLimit(values['rate-limit']) }),
      ...(values['lock-duration'] !== undefined && {
        lockDurationMs: integer(values['lock-duration'], '--lock-duration'),
      }),
      ...(values['stalled-interval'] !== undefined && {
        stalledIntervalMs: integer(values['stalled-interval'], '--stalled-interval'),
      }),
      ...(values['no-events'] && { events: false }),
      ...(values['no-journal'] && { journal: false }),
    },
  };
}

/** Imports the module and returns its topologies (default export, or the export `topologies`). */
export async function loadTopologies(module: string): Promise<Record<string, Topology>> {
  const loaded = (await import(pathToFileURL(resolve(module)).href)) as Record<string, unknown>;
  const topologies = loaded.topologies ?? loaded.default;
  if (typeof topologies !== 'object' || topologies === null) {
    throw new ConfigError(
      `swarm-worker: ${module} must export its topologies as the default export or as \`topologies\` ({ name: topology }).`,
    );
  }
  return topologies as Record<string, Topology>;
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      queue: { type: 'string' },
      redis: { type: 'string' },
      concurrency: { type: 'string' },
      'rate-limit': { type: 'string' },
      'lock-duration': { type: 'string' },
      'stalled-interval': { type: 'string' },
      'no-events': { type: 'boolean' },
      'no-journal': { type: 'boolean' },
    },
  });
}

function integer(text: string, option: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !(value >= 1)) {
    throw new ConfigError(`swarm-worker: ${option} must be an integer >= 1 (got ${JSON.stringify(text)}).`);
  }
  return value;
}

function rateLimit(text: string): RateLimit {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match) {
    throw new ConfigError(
      `swarm-worker: --rate-limit must be <max>/<ms>, like 500/60000 (got ${JSON.stringify(text)}).`,
    );
  }
  return { max: integer(match[1]!, '--rate-limit max'), perMs: integer(match[2]!, '--rate-limit ms') };
}
