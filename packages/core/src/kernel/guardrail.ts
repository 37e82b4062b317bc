import { z } from 'zod';
import type { Guardrail, GuardrailAgent, GuardrailLike, GuardrailOptions } from '../contracts/run.js';
import { ConfigError, GuardrailTripwireError } from './errors.js';
import { gateCalls, type RunContext, ungated } from './run-context.js';

export type {
  Guardrail,
  GuardrailAgent,
  GuardrailContext,
  GuardrailLike,
  GuardrailOptions,
  GuardrailResult,
} from '../contracts/run.js';

/** Checked guardrails, ready to run. */
export interface Guardrails {
  input: readonly Guardrail[];
  output: readonly Guardrail[];
}

/** Checks guardrail options; undefined when there are none. Throws ConfigError naming the owner. */
export function validateGuardrails(
  options: GuardrailOptions | undefined,
  owner: string,
): Guardrails | undefined {
  const input = toGuardrails(options?.inputGuardrails, `${owner}: inputGuardrails`);
  const output = toGuardrails(options?.outputGuardrails, `${owner}: outputGuardrails`);
  return input.length === 0 && output.length === 0 ? undefined : { input, output };
}

/** Both sets together: `first`'s guardrails, then `second`'s. */
export function joinGuardrails(
  first: Guardrails | undefined,
  second: Guardrails | undefined,
): Guardrails | undefined {
  if (first === undefined) return second;
  if (second === undefined) return first;
  return { input: [...first.input, ...second.input], output: [...first.output, ...second.output] };
}

function toGuardrails(list: readonly GuardrailLike[] | undefined, option: string): Guardrail[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new ConfigError(`${option} must be an array.`);
  return list.map((item, i) => {
    const agent = item as GuardrailAgent;
    if (typeof agent?.run === 'function' && typeof agent.name === 'string' && 'outputType' in agent) {
      return agentGuardrail(agent, `${option}[${i}]`);
    }
    const guardrail = item as Guardrail;
    if (
      typeof guardrail?.name !== 'string' ||
      guardrail.name === '' ||
      typeof guardrail.check !== 'function'
    ) {
      throw new ConfigError(`${option}[${i}] must be { name, check(value, ctx) } or an Agent.`);
    }
    return guardrail;
  });
}

function agentGuardrail(agent: GuardrailAgent, option: string): Guardrail {
  const tripwire = agent.outputType?.shape.tripwire;
  if (!(tripwire instanceof z.ZodBoolean)) {
    throw new ConfigError(
      `${option}: the Agent "${agent.name}" needs an outputType with a boolean "tripwire" to be a guardrail.`,
    );
  }
  return {
    name: agent.name,
    async check(value, context) {
      const { finalOutput } = await agent.run(value, { parent: context.run });
      return { tripwire: (finalOutput as { tripwire: boolean }).tripwire, info: finalOutput };
    },
  };
}

/** Guardrails started on a run: what its end and its failure go through. */
export interface GuardrailRun {
  /**
   * Before the run returns: waits for the input guardrails, then checks `output` with the output
   * ones. Throws `GuardrailTripwireError` when one trips.
   */
  passed(output: string): Promise<void>;
  /** The error a failed run should throw: the input guardrail's trip when one tripped (it cancelled the run), else `error`. */
  failure(error: unknown): Promise<unknown>;
}

const noGuardrails: GuardrailRun = Object.freeze({
  passed: () => Promise.resolve(),
  failure: (error: unknown) => Promise.resolve(error),
});

/**
 * Starts a run's input guardrails beside its body: they hold every model call after the first
 * (and every tool call) until they pass (see gateCalls), and when one trips it aborts the run
 * through `trip`, cancelling its first call. Each check emits `guardrail.pass` or `guardrail.trip`.
 */
export function startGuardrails(
  context: RunContext,
  trip: AbortController | undefined,
  guardrails: Guardrails | undefined,
  input: string,
): GuardrailRun {
  if (guardrails === undefined || trip === undefined) return noGuardrails;
  let checking: Promise<GuardrailTripwireError | undefined> = Promise.resolve(undefined);
  if (guardrails.input.length > 0) {
    // The first trip cancels the run at once, without waiting for the other checks.
    checking = runChecks('input', guardrails.input, input, context, (tripped) => trip.abort(tripped)).catch(
      (error: unknown) => {
        // A check that fails (not a trip) ends the run too: no input goes through unchecked.
        trip.abort(error);
        throw error;
      },
    );
    gateCalls(context, checking);
  }
  return {
    async passed(output) {
      const tripped = await checking;
      if (tripped) throw tripped;
      if (guardrails.output.length === 0) return;
      const trippedOut = await runChecks('output', guardrails.output, output, context);
      if (trippedOut) throw trippedOut;
    },
    async failure(error) {
      try {
        return (await checking) ?? error;
      } catch (checkError) {
        return checkError;
      }
    },
  };
}

/** `body` under guardrails (see startGuardrails); `outputOf` reads what the output guardrails check. */
export async function guardedRun<R>(
  context: RunContext,
  trip: AbortController,
  guardrails: Guardrails,
  input: string,
  body: () => Promise<R>,
  outputOf: (result: R) => string,
): Promise<R> {
  const guard = startGuardrails(context, trip, guardrails, input);
  let value: R;
  try {
    value = await body();
  } catch (error) {
    throw await guard.failure(error);
  }
  await guard.passed(outputOf(value));
  return value;
}

// Runs one side's guardrails concurrently: `onTrip` hears of the first trip as it happens. The
// first that tripped (in list order), else the first check's failure, else undefined.
async function runChecks(
  kind: 'input' | 'output',
  guardrails: readonly Guardrail[],
  value: string,
  run: RunContext,
  onTrip?: (error: GuardrailTripwireError) => void,
): Promise<GuardrailTripwireError | undefined> {
  const own = ungated(run);
  let first: GuardrailTripwireError | undefined;
  const settled = await Promise.allSettled(
    guardrails.map(async (guardrail) => {
      const result = await guardrail.check(value, { kind, run: own, signal: own.signal });
      if (typeof result?.tripwire !== 'boolean') {
        throw new ConfigError(`The ${kind} guardrail "${guardrail.name}" returned no boolean tripwire.`);
      }
      run.emit({
        type: result.tripwire ? 'guardrail.trip' : 'guardrail.pass',
        guardrail: guardrail.name,
        kind,
        ...(result.info !== undefined && { info: result.info }),
      });
      if (!result.tripwire) return undefined;
      const error = new GuardrailTripwireError(guardrail.name, kind, result.info);
      if (first === undefined) {
        first = error;
        onTrip?.(error);
      }
      return error;
    }),
  );
  for (const outcome of settled) if (outcome.status === 'fulfilled' && outcome.value) return outcome.value;
  for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
  return undefined;
}
