import type { ContentPart, Message } from '../contracts/model.js';
import { base64Of, validateContentParts } from '../kernel/content-parts.js';
import { ConfigError } from '../kernel/errors.js';
import type { AnthropicInputBlockParam } from './anthropic-client-shape.js';

// The Messages API takes images and documents in user turns (and images in tool results): elsewhere
// a part that is not text is a ConfigError before the call, rather than a 400 from the server.

const imageTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** A system or assistant message's text; a part that is not text is a ConfigError. */
export function anthropicText(message: Message): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : notHere(part, message.role))).join('\n');
}

/** A user message's content as blocks: text, `image` (base64 or url source), `document` (a PDF or plain text). */
export function toAnthropicBlocks(message: Message): AnthropicInputBlockParam[] {
  const { content } = message;
  const tag = message.name ? `[${message.name}] ` : '';
  if (typeof content === 'string') {
    const text = tag + content;
    return text ? [{ type: 'text', text }] : [];
  }
  validateContentParts(content, 'message content');
  const blocks = content.map(toBlock);
  if (tag !== '') {
    const first = blocks.find((b) => b.type === 'text');
    if (first !== undefined && first.type === 'text') first.text = tag + first.text;
    else blocks.unshift({ type: 'text', text: tag.trimEnd() });
  }
  return blocks;
}

/** A tool result's content: its text, or text and image blocks; a file is a ConfigError. */
export function toolResultContent(message: Message): string | AnthropicInputBlockParam[] {
  const { content } = message;
  if (typeof content === 'string') return content;
  validateContentParts(content, 'tool result content');
  return content.map((part) => (part.type === 'file' ? notHere(part, 'tool') : toBlock(part)));
}

function toBlock(part: ContentPart): AnthropicInputBlockParam {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image': {
      if ('url' in part) {
        const inline = /^data:([^;,]+);base64,(.*)$/s.exec(part.url);
        if (inline === null) return { type: 'image', source: { type: 'url', url: part.url } };
        return {
          type: 'image',
          source: { type: 'base64', media_type: imageType(inline[1]!), data: inline[2]! },
        };
      }
      return {
        type: 'image',
        source: { type: 'base64', media_type: imageType(part.mediaType), data: base64Of(part.data) },
      };
    }
    case 'file': {
      const title = part.filename === undefined ? {} : { title: part.filename };
      if (part.mediaType === 'application/pdf') {
        return {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: base64Of(part.data) },
          ...title,
        };
      }
      if (part.mediaType === 'text/plain') {
        return {
          type: 'document',
          source: { type: 'text', media_type: 'text/plain', data: utf8Of(part.data) },
          ...title,
        };
      }
      throw new ConfigError(
        `Anthropic takes files of type application/pdf or text/plain (got ${part.mediaType}${part.filename ? ` for ${part.filename}` : ''}).`,
      );
    }
  }
}

function imageType(mediaType: string): 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' {
  if (imageTypes.has(mediaType)) return mediaType as 'image/jpeg';
  throw new ConfigError(
    `Anthropic takes images of type image/jpeg, image/png, image/gif or image/webp (got ${mediaType}).`,
  );
}

function utf8Of(data: Uint8Array | string): string {
  if (typeof data !== 'string') return new TextDecoder().decode(data);
  return new TextDecoder().decode(Uint8Array.from(atob(data), (c) => c.charCodeAt(0)));
}

function notHere(part: ContentPart, role: string): never {
  throw new ConfigError(
    `Anthropic takes ${part.type} parts in user messages (and images in tool results), not in a ${role} message.`,
  );
}
