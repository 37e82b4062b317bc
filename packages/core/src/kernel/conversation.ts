import { z } from 'zod';
import type { Message, Role } from '../contracts/model.js';
import { writeFileAtomic } from './atomic-write.js';
import { ConfigError } from './errors.js';
import { nodeBuiltin } from './node-builtin.js';

/** One entry of a conversation: who said what, and when (ISO time). */
export interface ConversationEntry {
  role: Role;
  name?: string;
  content: string;
  at: string;
}

/** How a conversation is rendered: the last entry, all as text, a list, JSON, or Markdown. */
export type OutputType = 'final' | 'all' | 'list' | 'json' | 'markdown';

/** The accepted output types, for validating options. */
export const outputTypes: readonly OutputType[] = ['final', 'all', 'list', 'json', 'markdown'];

const entrySchema = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  name: z.string().optional(),
  content: z.string(),
  at: z.string(),
});
const conversationSchema = z.object({ entries: z.array(entrySchema) });

/** An ordered record of who said what, shared by the agents of a topology. */
export class Conversation {
  readonly #entries: ConversationEntry[] = [];

  constructor(entries: ConversationEntry[] = []) {
    for (const entry of entries) this.#entries.push({ ...entry });
  }

  /** The entries, oldest first (a copy). */
  get entries(): ConversationEntry[] {
    return this.#entries.map((e) => ({ ...e }));
  }

  get length(): number {
    return this.#entries.length;
  }

  /** Appends an entry stamped with the current time, and returns it. */
  add(role: Role, content: string, name?: string): ConversationEntry {
    const entry: ConversationEntry = {
      role,
      content,
      at: new Date().toISOString(),
      ...(name ? { name } : {}),
    };
    this.#entries.push(entry);
    return { ...entry };
  }

  /** The last entry, or undefined when empty. */
  last(): ConversationEntry | undefined {
    const last = this.#entries.at(-1);
    return last ? { ...last } : undefined;
  }

  /** Every entry on its own line as `name: content` (the role when there is no name). */
  toString(): string {
    return this.#entries.map((e) => `${e.name ?? e.role}: ${e.content}`).join('\n');
  }

  /**
   * The conversation as typed turns seen by `forAgent`: its own entries become `assistant` turns,
   * everyone else's become `user` turns carrying their name. System and tool entries keep their role.
   */
  toMessages(forAgent?: string): Message[] {
    return this.#entries.map((e): Message => {
      if (e.role === 'system' || e.role === 'tool') return { role: e.role, content: e.content };
      if (forAgent !== undefined && e.name === forAgent) return { role: 'assistant', content: e.content };
      if (e.role === 'assistant' || e.name !== undefined) {
        return { role: 'user', content: e.content, ...(e.name ? { name: e.name } : {}) };
      }
      return { role: 'user', content: e.content };
    });
  }

  /** The last entry's content (`final`), the whole text (`all`), each entry as a line (`list`), JSON, or Markdown. */
  format(outputType: 'list'): string[];
  format(outputType: Exclude<OutputType, 'list'>): string;
  format(outputType: OutputType): string | string[];
  format(outputType: OutputType): string | string[] {
    switch (outputType) {
      case 'final':
        return this.#entries.at(-1)?.content ?? '';
      case 'all':
        return this.toString();
      case 'list':
        return this.#entries.map((e) => `${e.name ?? e.role}: ${e.content}`);
      case 'json':
        return JSON.stringify(this.toJSON(), null, 2);
      case 'markdown':
        return this.#entries.map((e) => `### ${e.name ?? e.role}\n\n${e.content}`).join('\n\n');
      default:
        throw new ConfigError(
          `Unknown output type ${JSON.stringify(outputType)}; accepted: ${outputTypes.join(', ')}.`,
        );
    }
  }

  /** A plain object that `Conversation.fromJSON` reads back. */
  toJSON(): { entries: ConversationEntry[] } {
    return { entries: this.entries };
  }

  /** Reads a conversation from `toJSON()` output, validating it. */
  static fromJSON(data: unknown): Conversation {
    const parsed = conversationSchema.safeParse(data);
    if (!parsed.success) throw new ConfigError(`Not a saved conversation: ${parsed.error.message}`);
    return new Conversation(parsed.data.entries as ConversationEntry[]);
  }

  /**
   * Saves as JSON atomically: a crash mid-save leaves the previous file intact, never a truncated one.
   * Needs Node.js; elsewhere store `toJSON()` yourself and read it back with `Conversation.fromJSON`.
   */
  async save(path: string): Promise<void> {
    nodeBuiltin('node:fs/promises', 'Conversation.save()', withoutFiles);
    await writeFileAtomic(path, JSON.stringify(this.toJSON(), null, 2));
  }

  /** Loads a conversation written by `save` (Node.js only, as `save`). */
  static async load(path: string): Promise<Conversation> {
    const fs = nodeBuiltin<typeof import('node:fs/promises')>(
      'node:fs/promises',
      'Conversation.load()',
      withoutFiles,
    );
    const text = await fs.readFile(path, 'utf8');
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new ConfigError(`${path} is not a saved conversation: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return Conversation.fromJSON(data);
  }
}

const withoutFiles =
  'keep conversation.toJSON() in a store of your own (localStorage, a database) and read it back with Conversation.fromJSON().';
