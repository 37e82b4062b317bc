import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type MockHandler, sampleFromSchema } from '@swarm/core/testing';

/** The built command, as users run it. */
export const swarmBin = fileURLToPath(new URL('../dist/swarm.js', import.meta.url));
/** The repository's examples folder, where a spec for every topology lives. */
export const specsDir = fileURLToPath(new URL('../../../examples/specs/', import.meta.url));
/** Specs of the command's own tests (a tool that needs approval). */
export const testSpecsDir = fileURLToPath(new URL('./specs/', import.meta.url));

/** What one run of the command gave. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `swarm ...args` as a real process with only the given environment (no keys leak in). */
export function swarm(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<Ran> {
  return run(process.execPath, [swarmBin, ...args], env, cwd);
}

/** Runs a command with only the given environment (plus PATH, HOME and an Ollama host nobody serves). */
export function run(
  command: string,
  args: string[],
  env: Record<string, string> = {},
  cwd?: string,
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        OLLAMA_HOST: 'http://127.0.0.1:9',
        ...env,
      },
      ...(cwd && { cwd }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Runs `swarm ...args` in a pseudo-terminal (util-linux `script`), so that its stdin and stdout
 * are a terminal, typing each of `keys` when the screen shows the next prompt (`[y/n] ` or a
 * reason's `): `). What the terminal showed comes back as `stdout` (the command's stderr included).
 */
export function swarmInTerminal(args: string[], env: Record<string, string>, keys: string[]): Promise<Ran> {
  const command = [process.execPath, swarmBin, ...args]
    .map((a) => `'${a.replaceAll("'", `'\\''`)}'`)
    .join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/script', ['-qfec', command, '/dev/null'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        OLLAMA_HOST: 'http://127.0.0.1:9',
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    let typed = 0;
    child.stdout.on('data', (d) => {
      stdout += d;
      const prompts = stdout.match(/\[y\/n\] |\(Enter for none\): /g)?.length ?? 0;
      while (typed < prompts && typed < keys.length) child.stdin.write(keys[typed++]!);
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

type Tools = { function?: { name?: string; parameters?: Record<string, unknown> } }[];

/**
 * Answers any Chat Completions request the way a cooperative model would: a forced function call
 * with arguments sampled from its schema, a request for JSON with a sample of its schema, anything
 * else with a short text. `first` may take over.
 */
export function cooperativeModel(first?: MockHandler): MockHandler {
  let calls = 0;
  return async (request) => {
    calls += 1;
    const taken = await first?.(request);
    if (taken) return taken;
    const choice = request.body.tool_choice as { function?: { name?: string } } | string | undefined;
    const forced = typeof choice === 'object' ? choice.function?.name : undefined;
    if (forced === 'design_swarm') {
      // A design is judged by whether it can be built and run, so a cooperative designer picks a
      // shape any task fits, rather than the first topology in the list.
      const agents = ['drafter', 'reviewer'].map((name) => ({
        name,
        description: name,
        instructions: `You are the ${name}.`,
      }));
      return {
        toolCalls: [
          {
            name: forced,
            arguments: { topology: 'SequentialWorkflow', reason: 'Draft, then review.', agents, config: {} },
          },
        ],
      };
    }
    // Asked for JSON of a schema (OpenAI's response_format: an Agent's typed output, a head's
    // decision), it answers with a sample of that schema.
    const format = request.body.response_format as
      | { json_schema?: { schema?: Record<string, unknown> } }
      | undefined;
    if (format?.json_schema?.schema)
      return { text: JSON.stringify(sampleFromSchema(format.json_schema.schema)) };
    if (forced) {
      const tool = (request.body.tools as Tools).find((t) => t.function?.name === forced);
      return {
        toolCalls: [
          {
            name: forced,
            arguments: sampleFromSchema(tool?.function?.parameters ?? {}) as Record<string, unknown>,
          },
        ],
      };
    }
    return { text: `answer ${calls}` };
  };
}

/**
 * The models of test/specs/refund-desk.yaml, answering from the request alone (so a resumed run
 * meets the same answers): the clerk asks the calculator, then books what it said; the writer
 * writes to the customer.
 */
export const refundDeskModel: MockHandler = (request) => {
  const messages = request.body.messages as { role: string; content: string }[];
  const tools = (request.body.tools ?? []) as Tools;
  const last = messages.at(-1)!;
  if (tools.some((t) => t.function?.name === 'calculator')) {
    if (last.role === 'tool') return { text: `Refund: ${last.content}.` };
    return { toolCalls: [{ name: 'calculator', arguments: { expression: '40 * 2' } }] };
  }
  return { text: 'Dear customer, your refund is on its way.' };
};
