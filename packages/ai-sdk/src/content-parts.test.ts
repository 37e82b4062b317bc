// Images and files in swarm messages, as AI SDK prompt parts: through the AI SDK's mock model (the
// prompt it receives) and through @ai-sdk/openai-compatible on the Chat Completions wire.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { ConfigError, type Message } from '@swarm/core';
import { mockProviderServer } from '@swarm/core/testing';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { aiSdkModel } from './ai-sdk-model.js';
import { generated } from './test-support.js';

const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47]);

describe('aiSdkModel: content parts', () => {
  it('maps text, images (url, data URL, bytes) and files to the prompt of the AI SDK model', async () => {
    const languageModel = new MockLanguageModelV4({ doGenerate: generated([{ type: 'text', text: 'ok' }]) });
    const message: Message = {
      role: 'user',
      name: 'scout',
      content: [
        { type: 'text', text: 'Compare these.' },
        { type: 'image', url: 'https://example.com/cat.png' },
        { type: 'image', url: 'data:image/jpeg;base64,/9j/' },
        { type: 'image', data: png, mediaType: 'image/png' },
        { type: 'file', data: 'JVBERi0xLjQ=', mediaType: 'application/pdf', filename: 'report.pdf' },
      ],
    };
    await aiSdkModel(languageModel).generate({ messages: [message] });

    expect(languageModel.doGenerateCalls[0]!.prompt).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: '[scout]' },
          { type: 'text', text: 'Compare these.' },
          {
            type: 'file',
            data: { type: 'url', url: new URL('https://example.com/cat.png') },
            mediaType: 'image',
          },
          { type: 'file', data: { type: 'data', data: '/9j/' }, mediaType: 'image/jpeg' },
          { type: 'file', data: { type: 'data', data: png }, mediaType: 'image/png' },
          {
            type: 'file',
            data: { type: 'data', data: 'JVBERi0xLjQ=' },
            mediaType: 'application/pdf',
            filename: 'report.pdf',
          },
        ],
      },
    ]);
  });

  it('refuses an image in an assistant turn with a ConfigError before the model is called', async () => {
    const languageModel = new MockLanguageModelV4({ doGenerate: generated([{ type: 'text', text: 'ok' }]) });
    const error = await aiSdkModel(languageModel)
      .generate({
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: [{ type: 'image', url: 'https://example.com/a.png' }] },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect(languageModel.doGenerateCalls).toHaveLength(0);
  });

  it('puts an image on the Chat Completions wire through @ai-sdk/openai-compatible', async () => {
    const server = await mockProviderServer();
    try {
      server.enqueue({ text: 'A cat.' });
      const provider = createOpenAICompatible({ name: 'mock', baseURL: server.openaiBaseURL, apiKey: 'k' });
      const model = aiSdkModel(provider.chatModel('mock-model'));
      const response = await model.generate({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image', data: png, mediaType: 'image/png' },
            ],
          },
        ],
      });
      expect(response.text).toBe('A cat.');
      expect(server.requests[0]!.body.messages).toEqual([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw==' } },
          ],
        },
      ]);
    } finally {
      await server.close();
    }
  });
});
