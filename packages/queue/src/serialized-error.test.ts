import {
  AbortError,
  BudgetExceededError,
  ConfigError,
  MaxTurnsExceededError,
  ModelError,
  NoRouteError,
  RunPausedError,
  StructuredOutputError,
  SwarmError,
  ToolError,
} from '@swarm/core';
import { describe, expect, it } from 'vitest';
import { decodeFailedReason, encodeFailedReason } from './serialized-error.js';

const roundTrip = (error: unknown) => decodeFailedReason(encodeFailedReason(error));

describe('errors crossing from a worker to the producer', () => {
  it.each([
    ['ConfigError', new ConfigError('maxLoops must be >= 1'), ConfigError, { code: 'CONFIG' }],
    [
      'ModelError',
      new ModelError('429 Too Many Requests', { provider: 'anthropic', status: 429, retryable: true }),
      ModelError,
      { code: 'MODEL', provider: 'anthropic', status: 429, retryable: true },
    ],
    [
      'BudgetExceededError',
      new BudgetExceededError('budget:tokens', 'over 1000 tokens'),
      BudgetExceededError,
      { code: 'BUDGET_EXCEEDED', reason: 'budget:tokens' },
    ],
    ['AbortError', new AbortError('stopped'), AbortError, { code: 'ABORTED' }],
    [
      'StructuredOutputError',
      new StructuredOutputError('no valid call', ['missing score']),
      StructuredOutputError,
      { code: 'STRUCTURED_OUTPUT', attempts: ['missing score'] },
    ],
    ['ToolError', new ToolError('lookup', 'timed out'), ToolError, { code: 'TOOL', tool: 'lookup' }],
    [
      'MaxTurnsExceededError',
      new MaxTurnsExceededError('desk', 3),
      MaxTurnsExceededError,
      { code: 'MAX_TURNS_EXCEEDED', agent: 'desk', maxTurns: 3 },
    ],
    ['NoRouteError', new NoRouteError('taxes?'), NoRouteError, { code: 'NO_ROUTE', task: 'taxes?' }],
    [
      'RunPausedError',
      new RunPausedError([
        {
          id: 'a1b2',
          runId: 'job-1',
          path: ['Swarm', 'desk'],
          agent: 'desk',
          tool: 'refund',
          arguments: { amount: 40 },
        },
      ]),
      RunPausedError,
      {
        code: 'RUN_PAUSED',
        runId: 'job-1',
        pending: [
          {
            id: 'a1b2',
            runId: 'job-1',
            path: ['Swarm', 'desk'],
            agent: 'desk',
            tool: 'refund',
            arguments: { amount: 40 },
          },
        ],
      },
    ],
  ])('rebuilds a %s as the same class, code, message and details', (_name, error, type, details) => {
    const rebuilt = roundTrip(error);
    expect(rebuilt).toBeInstanceOf(type);
    expect(rebuilt.message).toBe(error.message);
    expect(rebuilt.name).toBe(error.name);
    expect(rebuilt).toMatchObject(details);
  });

  it('keeps the code of a SwarmError subclass it does not know', () => {
    const error = new SwarmError('NO_ANSWER', 'nobody answered');
    error.name = 'NoAnswerError';
    const rebuilt = roundTrip(error);
    expect(SwarmError.isInstance(rebuilt)).toBe(true);
    expect(rebuilt).toMatchObject({ name: 'NoAnswerError', code: 'NO_ANSWER', message: 'nobody answered' });
  });

  it('rebuilds any other error as an Error with its name and message', () => {
    const rebuilt = roundTrip(new TypeError('x is not a function'));
    expect(SwarmError.isInstance(rebuilt)).toBe(false);
    expect(rebuilt).toMatchObject({ name: 'TypeError', message: 'x is not a function' });
  });

  it('reads a reason BullMQ wrote itself as an Error with that message', () => {
    const rebuilt = decodeFailedReason('job stalled more than allowable limit');
    expect(rebuilt).toBeInstanceOf(Error);
    expect(rebuilt.message).toBe('job stalled more than allowable limit');
  });
});
