import { describe, expect, it } from 'vitest';
import type { ContentPart, Message } from '../contracts/model.js';
import {
  base64Of,
  messageText,
  taskMessage,
  validateContentParts,
  withAttachments,
} from './content-parts.js';
import { ConfigError } from './errors.js';

describe('messageText', () => {
  it('returns a string content as it is', () => {
    const content = 'Plain text.';
    expect(messageText({ content })).toBe(content);
  });

  it('joins the text parts by newlines and skips images and files', () => {
    expect(
      messageText({
        content: [
          { type: 'text', text: 'Look at this:' },
          { type: 'image', url: 'https://example.com/a.png' },
          { type: 'text', text: 'What is it?' },
        ],
      }),
    ).toBe('Look at this:\nWhat is it?');
  });
});

describe('validateContentParts', () => {
  it('accepts text, images by url or data, and files', () => {
    const parts = [
      { type: 'text', text: 'hi' },
      { type: 'image', url: 'https://example.com/a.png' },
      { type: 'image', data: new Uint8Array([1]), mediaType: 'image/png' },
      { type: 'file', data: 'aGk=', mediaType: 'application/pdf', filename: 'a.pdf' },
    ];
    expect(validateContentParts(parts, 'attachments')).toBe(parts);
  });

  it.each([
    [[{ type: 'video', url: 'x' }], /attachments\[0\]: unknown content part type "video"/],
    [
      [{ type: 'image', data: 'aGk=', mediaType: 'application/pdf' }],
      /attachments\[0\]: an image's mediaType must be image\/\*/,
    ],
    [
      [
        { type: 'text', text: 'ok' },
        { type: 'file', data: 3, mediaType: 'application/pdf' },
      ],
      /attachments\[1\]: a file part needs data/,
    ],
    [[{ type: 'file', data: 'aGk=' }], /attachments\[0\]: a file part needs a mediaType/],
    ['not parts', /attachments must be an array of content parts/],
  ])('refuses %j with a ConfigError that names the part', (parts, message) => {
    expect(() => validateContentParts(parts, 'attachments')).toThrow(ConfigError);
    expect(() => validateContentParts(parts, 'attachments')).toThrow(message);
  });
});

describe('base64Of', () => {
  it('encodes bytes, and takes a string as base64 already', () => {
    expect(base64Of(new TextEncoder().encode('%PDF-1.4'))).toBe('JVBERi0xLjQ=');
    expect(base64Of('JVBERi0xLjQ=')).toBe('JVBERi0xLjQ=');
  });
});

describe('withAttachments', () => {
  const chart: ContentPart = { type: 'image', url: 'https://example.com/chart.png' };

  it('puts the attachments on the first plain user turn, not on a named one', () => {
    const turns: Message[] = [
      { role: 'user', name: 'planner', content: 'Plan: read the chart.' },
      { role: 'user', content: 'What does the chart show?' },
    ];
    expect(withAttachments(turns, [chart])).toEqual([
      turns[0],
      { role: 'user', content: [{ type: 'text', text: 'What does the chart show?' }, chart] },
    ]);
    expect(turns[1]!.content).toBe('What does the chart show?');
  });

  it('leaves turns that already carry them as they are', () => {
    const turns: Message[] = [
      { role: 'user', content: 'Earlier question.' },
      taskMessage('This question.', [chart]),
    ];
    expect(withAttachments(turns, [chart])).toEqual(turns);
  });
});
