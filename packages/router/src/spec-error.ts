import { ConfigError } from '@swarm/core';
import type { z } from 'zod';

/** One problem in a swarm spec, at a path such as `agents[1].name` or `config.flow`. */
export interface SpecIssue {
  path: string;
  message: string;
}

/** A swarm spec that cannot be built: every problem found, each at its path in the spec. */
export class SwarmSpecError extends ConfigError {
  readonly issues: SpecIssue[];

  constructor(issues: SpecIssue[]) {
    super(
      `Invalid swarm spec: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
    );
    this.name = 'SwarmSpecError';
    this.issues = issues;
  }
}

/** A path as a reader writes it: `agents[1].tools[0]`, `config.flow`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

/** zod issues as spec issues, under `prefix` (for example `config`). */
export function issuesOf(error: z.ZodError, prefix: PropertyKey[] = []): SpecIssue[] {
  return error.issues.map((issue) => ({
    path: formatPath([...prefix, ...issue.path]),
    message: issue.message,
  }));
}
