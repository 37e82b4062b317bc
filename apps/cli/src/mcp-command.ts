import { readAttachments, specAttachmentPaths } from './attachments.js';
import { CliError } from './cli-error.js';
import { loadSpec } from './load-spec.js';

/** Flags of `swarm mcp`. */
export interface McpFlags {
  /** The model of agents whose spec names none. */
  model?: string;
  /** Folders outside the spec's own that its `attachments:` may read (`--allow-path`). */
  allowPath?: string[];
}

/**
 * `swarm mcp <spec>`: serves the spec's topology as one MCP tool over stdio, for a client that
 * starts servers as commands (a desktop assistant, an IDE). Each call of the tool is a run of its
 * task; stdout is the protocol's, so the command writes nothing else there. The spec is checked
 * before the server starts (each problem a line, exit 2); the command ends when the client closes
 * its end.
 */
export async function mcpCommand(specPath: string, flags: McpFlags): Promise<void> {
  const { file, loaded } = await loadSpec(specPath, {
    model: flags.model,
    requireTask: false,
    problems: [],
  });
  // The spec's attachments go with every call's task, as with swarm run, and are confined the same way.
  const confined = specAttachmentPaths(
    specPath,
    (file.data as { attachments?: string[] }).attachments ?? [],
    flags.allowPath,
  );
  const attached = readAttachments(confined.paths, `${file.path}: attachments:`);
  const problems = [...confined.problems, ...attached.problems];
  if (problems.length > 0) throw new CliError(problems.join('\n'), 2);
  const { serveMcp } = await import('@swarm/mcp');
  const name = toolName(loaded.spec.name ?? loaded.descriptor.type);
  const serving = await serveMcp(loaded.topology, {
    transport: 'stdio',
    name,
    description: loaded.spec.description ?? `${loaded.descriptor.type}: ${loaded.descriptor.description}`,
    ...(attached.parts.length > 0 && { attachments: attached.parts }),
  });
  process.stderr.write(`swarm mcp: serving ${specPath} as the tool "${name}" over stdio\n`);
  await serving.closed;
}

// An MCP tool name is 1-64 letters, digits, `_` or `-`: a spec's name ("Support desk") becomes
// `Support_desk`.
function toolName(name: string): string {
  const cleaned = name
    .trim()
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .slice(0, 64);
  if (!/[a-zA-Z0-9]/.test(cleaned)) {
    throw new CliError(
      `the spec's name ${JSON.stringify(name)} has no letter or digit to name the MCP tool`,
      2,
    );
  }
  return cleaned;
}
