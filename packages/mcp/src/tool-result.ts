import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * A tool result as the text the model reads: text blocks as they are, embedded text resources with
 * their URI, binary blocks (images, audio, blobs) as one line saying what was left out, and the
 * structured content as JSON when there is nothing else. Past `maxChars` the text is cut, and the
 * cut is said, so a runaway result cannot fill the model's context.
 */
export function resultText(result: CallToolResult, maxChars: number): string {
  const parts = result.content.map(blockText);
  let text = parts.join('\n');
  if (parts.length === 0 && result.structuredContent !== undefined) {
    text = JSON.stringify(result.structuredContent);
  }
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[The result was cut here: it had ${text.length} characters, of which the first ${maxChars} are shown.]`;
}

function blockText(block: CallToolResult['content'][number]): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${base64Bytes(block.data)} bytes, not shown]`;
    case 'resource': {
      const { resource } = block;
      if ('text' in resource) return `[resource ${resource.uri}]\n${resource.text}`;
      const type = resource.mimeType ? ` ${resource.mimeType}` : '';
      return `[resource ${resource.uri}${type}, ${base64Bytes(resource.blob)} bytes, not shown]`;
    }
    case 'resource_link': {
      const name = block.name ? ` "${block.name}"` : '';
      return `[resource link ${block.uri}${name}${block.description ? `: ${block.description}` : ''}]`;
    }
    default:
      // A kind of content newer than this SDK's protocol version.
      return `[${(block as { type: string }).type} content, not shown]`;
  }
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}
