import type { ContentPart, Message } from '../contracts/model.js';
import { base64Of, messageText, validateContentParts } from '../kernel/content-parts.js';
import { ConfigError } from '../kernel/errors.js';
import type { OpenAIChatContentPart } from './openai-client-shape.js';

// Chat Completions takes images and files in user turns only: elsewhere a part that is not text is
// a ConfigError before the call, rather than a 400 from the server.

/** A system, assistant or tool message's text; a part that is not text is a ConfigError. */
export function textOnly(message: Message): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  const other = content.find((part) => part.type !== 'text');
  if (other !== undefined) {
    throw new ConfigError(
      `OpenAI chat takes ${other.type} parts in user messages only, not in a ${message.role} message.`,
    );
  }
  return messageText(message);
}

/** User content parts as Chat Completions parts: `text`, `image_url` (a URL or a data URL), `file` (a PDF). */
export function toChatParts(parts: readonly ContentPart[]): OpenAIChatContentPart[] {
  validateContentParts(parts, 'message content');
  return parts.map(toChatPart);
}

function toChatPart(part: ContentPart, index: number): OpenAIChatContentPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image':
      return {
        type: 'image_url',
        image_url: {
          url: 'url' in part ? part.url : `data:${part.mediaType};base64,${base64Of(part.data)}`,
        },
      };
    case 'file':
      if (part.mediaType !== 'application/pdf') {
        throw new ConfigError(
          `OpenAI chat takes files of type application/pdf only (got ${part.mediaType}${part.filename ? ` for ${part.filename}` : ''}).`,
        );
      }
      return {
        type: 'file',
        file: {
          file_data: `data:application/pdf;base64,${base64Of(part.data)}`,
          filename: part.filename ?? `part-${index}.pdf`,
        },
      };
  }
}
