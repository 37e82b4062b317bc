import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Agent, type ModelLike, type Tool } from '@swarm/core';
import { reply, ScriptedModel, toolCall } from '@swarm/core/testing';
import type { McpStdioServer } from '@swarm/mcp';
import { SequentialWorkflow } from '@swarm/workflow';

/** The task the team is given. */
export const task = 'Summarize the notes in the folder into summary.md.';

/** A folder of notes for the team to read, made in `dir`. */
export async function makeNotes(dir: string): Promise<string> {
  const notes = join(dir, 'notes');
  await mkdir(notes, { recursive: true });
  await writeFile(join(notes, 'bees.txt'), 'Bees pollinate about a third of the crops we eat.\n');
  await writeFile(join(notes, 'soil.txt'), 'Healthy soil holds water and feeds the crops.\n');
  return notes;
}

/**
 * `@modelcontextprotocol/server-filesystem`, allowed to touch `dir` only, started with this Node
 * from the installed package (`npx -y @modelcontextprotocol/server-filesystem <dir>` does the same
 * after a download).
 */
export function filesystemServer(dir: string): McpStdioServer {
  const manifest = createRequire(import.meta.url).resolve(
    '@modelcontextprotocol/server-filesystem/package.json',
  );
  return { command: process.execPath, args: [join(dirname(manifest), 'dist', 'index.js'), dir] };
}

/** The models of the team's two agents. */
export interface LibraryModels {
  librarian: ModelLike;
  writer: ModelLike;
}

/**
 * A librarian who reads the notes with the server's reading tools, then a writer who writes the
 * summary with its write tool: a SequentialWorkflow whose agents use an MCP server's tools.
 */
export function buildTeam(models: LibraryModels, tools: Tool[], dir: string): SequentialWorkflow {
  const pick = (...names: string[]) => tools.filter((t) => names.includes(t.name));
  const librarian = new Agent({
    name: 'librarian',
    instructions: `You have file tools on the folder ${dir}. List its notes folder, read every note, and report what each says, faithfully.`,
    model: models.librarian,
    tools: pick('list_directory', 'read_text_file', 'read_multiple_files'),
  });
  const writer = new Agent({
    name: 'writer',
    instructions: `Write a short summary of the notes you are given to ${join(dir, 'summary.md')} with write_file, then answer with the summary.`,
    model: models.writer,
    tools: pick('write_file'),
  });
  return new SequentialWorkflow({ name: 'library', agents: [librarian, writer] });
}

/** Scripted models playing the two agents when no model is configured: the calls a model would make. */
export function scriptedModels(dir: string): LibraryModels {
  const notes = join(dir, 'notes');
  const summary =
    '# Notes\n\n- Bees pollinate about a third of our crops.\n- Healthy soil holds water and feeds them.\n';
  return {
    librarian: new ScriptedModel([
      toolCall('list_directory', { path: notes }),
      toolCall('read_multiple_files', { paths: [join(notes, 'bees.txt'), join(notes, 'soil.txt')] }),
      reply(
        'bees.txt: bees pollinate a third of our crops. soil.txt: healthy soil holds water and feeds crops.',
      ),
    ]),
    writer: new ScriptedModel([
      toolCall('write_file', { path: join(dir, 'summary.md'), content: summary }),
      reply(`Wrote summary.md:\n${summary}`),
    ]),
  };
}
