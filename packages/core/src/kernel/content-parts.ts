import type { ContentPart, Message } from '../contracts/model.js';
import { ConfigError } from './errors.js';

/**
 * The text of a message: its content when it is a string (returned as is), else its text parts
 * joined by newlines (images and files have no text). For code that reads what a turn says.
 */
export function messageText(message: Pick<Message, 'content'>): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  let text = '';
  for (const part of content) {
    if (part.type !== 'text') continue;
    text = text === '' ? part.text : `${text}\n${part.text}`;
  }
  return text;
}

/**
 * Checks content parts given by a user (`attachments`, a message's parts): each a text, an image
 * with a `url` or with `data` and an `image/*` `mediaType`, or a file with `data` and `mediaType`.
 * Throws a ConfigError naming `where` and the part's index; returns the parts.
 */
export function validateContentParts(parts: unknown, where: string): ContentPart[] {
  if (!Array.isArray(parts)) throw new ConfigError(`${where} must be an array of content parts.`);
  parts.forEach((part, i) => {
    const problem = partProblem(part);
    if (problem !== undefined) throw new ConfigError(`${where}[${i}]: ${problem}`);
  });
  return parts as ContentPart[];
}

function partProblem(part: unknown): string | undefined {
  if (typeof part !== 'object' || part === null) return 'a content part must be an object with a type.';
  const p = part as Record<string, unknown>;
  const isData = (v: unknown) => typeof v === 'string' || v instanceof Uint8Array;
  switch (p.type) {
    case 'text':
      return typeof p.text === 'string' ? undefined : 'a text part needs text (a string).';
    case 'image':
      if ('url' in p && p.url !== undefined) {
        return typeof p.url === 'string' && p.url !== ''
          ? undefined
          : 'an image url must be a non-empty string.';
      }
      if (!isData(p.data)) return 'an image part needs a url, or data (bytes or base64) and a mediaType.';
      return typeof p.mediaType === 'string' && p.mediaType.startsWith('image/')
        ? undefined
        : `an image's mediaType must be image/* (got ${JSON.stringify(p.mediaType)}).`;
    case 'file':
      if (!isData(p.data)) return 'a file part needs data (bytes or base64).';
      if (typeof p.mediaType !== 'string' || !p.mediaType.includes('/')) {
        return `a file part needs a mediaType such as application/pdf (got ${JSON.stringify(p.mediaType)}).`;
      }
      return p.filename === undefined || typeof p.filename === 'string'
        ? undefined
        : "a file part's filename must be a string.";
    default:
      return `unknown content part type ${JSON.stringify(p.type)} (text, image or file).`;
  }
}

/**
 * The first user turn of a run given `task` as text: the text alone, or with the run's attachments
 * after it. Core builds every agent's first turn with it, so every topology passes attachments on.
 */
export function taskMessage(task: string, attachments: readonly ContentPart[] | undefined): Message {
  if (attachments === undefined || attachments.length === 0) return { role: 'user', content: task };
  return { role: 'user', content: [{ type: 'text', text: task }, ...attachments] };
}

/**
 * Typed turns with the run's attachments on the first plain user turn (no `name`: the task or the
 * user's request), unless a turn already carries them. A copy; the turns as given without attachments.
 */
export function withAttachments(
  messages: readonly Message[],
  attachments: readonly ContentPart[] | undefined,
): Message[] {
  const turns = [...messages];
  if (attachments === undefined || attachments.length === 0) return turns;
  const first = attachments[0];
  if (turns.some((m) => typeof m.content !== 'string' && m.content.includes(first!))) return turns;
  const at = turns.findIndex((m) => m.role === 'user' && !m.name && typeof m.content === 'string');
  if (at !== -1) turns[at] = { ...turns[at]!, ...taskMessage(turns[at]!.content as string, attachments) };
  return turns;
}

/** The base64 text of part data: a string is taken as base64 already; bytes are encoded. */
export function base64Of(data: Uint8Array | string): string {
  if (typeof data === 'string') return data;
  const buffer = (
    globalThis as {
      Buffer?: { from(b: ArrayBufferLike, o: number, l: number): { toString(e: 'base64'): string } };
    }
  ).Buffer;
  if (buffer !== undefined)
    return buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
  let binary = '';
  for (let i = 0; i < data.length; i += 0x8000) {
    binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * Typed turns as one text, for a member that takes text (a Topology): each turn on its own block,
 * headed by who said it.
 */
export function turnsAsText(messages: readonly Message[]): string {
  if (messages.length === 1 && messages[0]!.role === 'user' && !messages[0]!.name)
    return messageText(messages[0]!);
  return messages
    .filter((m) => m.role !== 'tool' && messageText(m).trim() !== '')
    .map((m) => `[${m.name ?? m.role}]\n${messageText(m)}`)
    .join('\n\n');
}
