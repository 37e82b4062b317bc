import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../contracts/model.js';
import { ConfigError } from '../kernel/errors.js';
import { type MockProviderServer, mockProviderServer } from '../testing/mock-provider-server.js';
import { anthropicModel } from './anthropic.js';
import { openaiModel } from './openai.js';

// "%PDF-1.4" and a PNG signature: small bytes whose base64 is known.
const pdf = new TextEncoder().encode('%PDF-1.4');
const pdfBase64 = 'JVBERi0xLjQ=';
const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47]);
const pngBase64 = 'iVBORw==';

const question: Message = {
  role: 'user',
  content: [
    { type: 'text', text: 'What do these show?' },
    { type: 'image', url: 'https://example.com/cat.png' },
    { type: 'image', data: png, mediaType: 'image/png' },
    { type: 'file', data: pdf, mediaType: 'application/pdf', filename: 'report.pdf' },
  ],
};

let server: MockProviderServer;

beforeEach(async () => {
  server = await mockProviderServer();
});

afterEach(async () => {
  await server.close();
});

const openai = () => openaiModel('gpt-5.4', { apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 0 });
const anthropic = () =>
  anthropicModel('claude-opus-4-7', { apiKey: 'k', baseURL: server.anthropicBaseURL, maxRetries: 0 });

describe('content parts on the OpenAI chat wire', () => {
  it('sends text, image_url (a URL and a data URL) and file parts in the user message', async () => {
    server.enqueue({ text: 'A cat and a report.' });
    const response = await openai().generate({ messages: [question] });
    expect(response.text).toBe('A cat and a report.');
    expect(server.requests[0]!.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What do these show?' },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${pngBase64}` } },
          {
            type: 'file',
            file: { file_data: `data:application/pdf;base64,${pdfBase64}`, filename: 'report.pdf' },
          },
        ],
      },
    ]);
  });

  it('sends the same parts when streaming, and a string content stays a string', async () => {
    server.enqueue({ text: 'Seen.' });
    const events = [];
    for await (const event of openai().stream!({
      messages: [{ role: 'user', content: 'Look:' }, question],
    }))
      events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'finish', response: { text: 'Seen.' } });
    const sent = server.requests[0]!.body.messages as { content: unknown }[];
    expect(sent[0]!.content).toBe('Look:');
    expect(sent[1]!.content).toEqual(
      expect.arrayContaining([
        { type: 'image_url', image_url: { url: `data:image/png;base64,${pngBase64}` } },
      ]),
    );
  });

  it('names a file it cannot take (not a PDF) with a ConfigError before any request', async () => {
    const error = await openai()
      .generate({
        messages: [
          {
            role: 'user',
            content: [{ type: 'file', data: 'aGk=', mediaType: 'text/csv', filename: 'a.csv' }],
          },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/application\/pdf only \(got text\/csv for a\.csv\)/);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses an image in an assistant turn with a ConfigError before any request', async () => {
    const error = await openai()
      .generate({
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: [{ type: 'image', url: 'https://example.com/a.png' }] },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/image parts in user messages only, not in a assistant message/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('content parts on the Anthropic Messages wire', () => {
  it('sends text, image (url and base64 sources) and document blocks in the user turn', async () => {
    server.enqueue({ text: 'A cat and a report.' });
    const response = await anthropic().generate({ messages: [question] });
    expect(response.text).toBe('A cat and a report.');
    expect(server.requests[0]!.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What do these show?' },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngBase64 } },
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: pdfBase64 },
            title: 'report.pdf',
          },
        ],
      },
    ]);
  });

  it('sends a data URL as a base64 image, plain text as a text document, and tags another agent’s turn', async () => {
    server.enqueue({ text: 'Read.' });
    await anthropic().generate({
      messages: [
        {
          role: 'user',
          name: 'scout',
          content: [
            { type: 'image', url: `data:image/png;base64,${pngBase64}` },
            { type: 'file', data: new TextEncoder().encode('Notes: all well.'), mediaType: 'text/plain' },
          ],
        },
      ],
    });
    expect(server.requests[0]!.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: '[scout]' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pngBase64 } },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Notes: all well.' } },
        ],
      },
    ]);
  });

  it('names an image type Anthropic cannot take with a ConfigError before any request', async () => {
    const error = await anthropic()
      .generate({
        messages: [{ role: 'user', content: [{ type: 'image', data: 'aGk=', mediaType: 'image/tiff' }] }],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/got image\/tiff/);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a malformed part (an image without url or data) with a ConfigError naming it', async () => {
    const bad = { type: 'image' };
    const error = await anthropic()
      .generate({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }, bad] as never }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/message content\[1\]: an image part needs a url/);
    expect(server.requests).toHaveLength(0);
  });
});
