import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type AskApprovals, terminalApprovals } from './approval-prompt.js';
import { CliError } from './cli-error.js';
import { demoCommand } from './demo.js';
import { evalCommand } from './eval-command.js';
import { mcpCommand } from './mcp-command.js';
import { resumeCommand } from './resume-command.js';
import { runCommand } from './run-command.js';
import { studioCommand } from './studio-command.js';
import { typesCommand } from './types-command.js';

const usage = `swarm — ways for LLM agents to work together

Usage:
  swarm run <spec.yaml|spec.json> [task]   run a swarm described by a spec file
      --task <text>      the task (else the words after the spec, else the spec's task:)
      --model <model>    model of agents whose spec names none (e.g. openai:gpt-5.4, ollama:llama3.2)
      --json             print the whole result as JSON
      --trace <file>     write the event trace (JSON)
      --report <file>    write a self-contained HTML report of the run
      --quiet            no live progress on stderr
      --journal <dir>    journal every call in <dir>, so a paused or crashed run can be resumed
      --run-id <id>      the run's id in the journal (else one is made and printed)
      --attach <file>    an image, PDF or text file that goes with the task (repeat for each)
      --allow-path <dir> a folder outside the spec's own that its attachments: may read (repeat for each)
      --studio           watch the run live in swarm studio (needs --journal; prints its address)
      --open             with --studio: open it in the browser
  swarm resume <dir> <run-id>                  go on with a journaled run (paused, or cut by a crash)
      --approve <id>[=note]    approve a call the run waits for (repeat for each)
      --reject <id>[=reason]   refuse one; the model reads the reason
      --by <name>        who decides (journaled with each decision; default your login name)
      --json, --trace <file>, --report <file>, --quiet   as for swarm run
  swarm mcp <spec.yaml|spec.json>              serve the spec's swarm as one MCP tool over stdio
      --model <model>    model of agents whose spec names none
      --allow-path <dir> as for swarm run
  swarm eval <spec.yaml...> --dataset <file.jsonl>   compare specs on a dataset (exact and normalised match)
      --models <a,b>     run every spec once per model (agents whose spec names none)
      --json             print the whole result as JSON
      --report <file>    write an HTML report (quality against cost, every run)
      --quiet            no progress bar
  swarm demo [--out <dir>] [--model <model>]   a short demo of each topology (offline without a model)
  swarm studio [--journal <dir>]... [--port <n>] [--open]   watch, approve and fork journaled runs in the browser
  swarm types                                  the topologies this command knows
  swarm --version                              the version of @swarm/cli

In a terminal, a run that reaches a tool call needing approval asks y/n and goes on; elsewhere it
pauses (exit 0), printing what waits and the swarm resume command.

Models: SWARM_MODEL, OPENAI_API_KEY, ANTHROPIC_API_KEY, or a local Ollama.`;

// The options each command takes: one given to another command would be silently ignored (a
// `--report` that writes nothing), so it is refused instead.
const commandOptions: Record<string, readonly string[]> = {
  run: [
    'task',
    'model',
    'json',
    'trace',
    'report',
    'quiet',
    'journal',
    'run-id',
    'attach',
    'allow-path',
    'studio',
    'open',
  ],
  resume: ['json', 'trace', 'report', 'quiet', 'approve', 'reject', 'by'],
  mcp: ['model', 'allow-path'],
  demo: ['out', 'model'],
  eval: ['dataset', 'models', 'model', 'json', 'report', 'quiet'],
  types: [],
};

async function main(argv: string[]): Promise<void> {
  // swarm studio parses its own options (--journal repeats).
  if (argv[0] === 'studio' && !argv.includes('--help') && !argv.includes('-h')) {
    await studioCommand(argv.slice(1), process.stdout);
    return;
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      task: { type: 'string' },
      model: { type: 'string' },
      json: { type: 'boolean' },
      trace: { type: 'string' },
      report: { type: 'string' },
      quiet: { type: 'boolean' },
      out: { type: 'string' },
      journal: { type: 'string' },
      'run-id': { type: 'string' },
      approve: { type: 'string', multiple: true },
      reject: { type: 'string', multiple: true },
      by: { type: 'string' },
      attach: { type: 'string', multiple: true },
      dataset: { type: 'string' },
      models: { type: 'string' },
      'allow-path': { type: 'string', multiple: true },
      studio: { type: 'boolean' },
      open: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.version) {
    process.stdout.write(`${version()}\n`);
    return;
  }
  if (values.help || command === undefined || command === 'help') {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const foreign = Object.keys(values).filter(
    (option) => option !== 'help' && commandOptions[command]?.includes(option) === false,
  );
  if (foreign.length > 0) {
    throw new CliError(
      foreign
        .map((option) => {
          const owners = Object.keys(commandOptions).filter((c) => commandOptions[c]!.includes(option));
          return `--${option} is not an option of swarm ${command} (it is one of swarm ${owners.join(', swarm ')})`;
        })
        .join('\n'),
      2,
    );
  }
  switch (command) {
    case 'run': {
      const [spec, ...words] = rest;
      if (!spec) throw new CliError('swarm run needs a spec file: swarm run <spec.yaml> [task]', 2);
      const task = values.task ?? (words.length ? words.join(' ') : undefined);
      const { 'run-id': runId, 'allow-path': allowPath, ...flags } = values;
      await runCommand(
        spec,
        {
          ...flags,
          ...(task !== undefined && { task }),
          ...(runId !== undefined && { runId }),
          ...(allowPath !== undefined && { allowPath }),
        },
        process.stdout,
        terminalAsk(),
      );
      return;
    }
    case 'resume': {
      const [dir, runId, ...extra] = rest;
      if (!dir || !runId || extra.length > 0) {
        throw new CliError(
          'swarm resume takes a journal directory and a run id: swarm resume <dir> <run-id> [--approve <id>[=note]...] [--reject <id>[=reason]...]',
          2,
        );
      }
      await resumeCommand(dir, runId, values, process.stdout, terminalAsk());
      return;
    }
    case 'mcp': {
      const [spec, ...extra] = rest;
      if (!spec || extra.length > 0) {
        throw new CliError('swarm mcp takes one spec file: swarm mcp <spec.yaml> [--model <model>]', 2);
      }
      await mcpCommand(spec, {
        ...(values.model !== undefined && { model: values.model }),
        ...(values['allow-path'] !== undefined && { allowPath: values['allow-path'] }),
      });
      return;
    }
    case 'demo':
      await demoCommand(
        { out: values.out ?? 'swarm-reports', ...(values.model && { model: values.model }) },
        process.stdout,
      );
      return;
    case 'eval':
      await evalCommand(rest, values, process.stdout);
      return;
    case 'types':
      typesCommand(process.stdout);
      return;
    default:
      throw new CliError(`unknown command "${command}"; try swarm --help`, 2);
  }
}

// The package's own manifest, one folder up from both src/ and the published dist/: the version a
// user installed, not one baked in at build time that a release could leave behind.
function version(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

// A person to ask about approvals when the command runs in a terminal (keyboard and screen); the
// questions go to stderr, so stdout keeps only the answer (or the JSON) it always has.
function terminalAsk(): AskApprovals | undefined {
  return process.stdin.isTTY && process.stdout.isTTY
    ? terminalApprovals(process.stdin, process.stderr)
    : undefined;
}

// A reader that stops early (`swarm demo | head`) closes the pipe: that ends the command quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof CliError) {
    process.stderr.write(
      `${error.message
        .split('\n')
        .map((l) => `swarm: ${l}`)
        .join('\n')}\n`,
    );
    process.exitCode = error.exitCode;
    return;
  }
  const code = (error as { code?: unknown })?.code;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    process.stderr.write(`swarm: ${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  process.stderr.write(`swarm: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
