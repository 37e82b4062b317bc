import { describe, expect, it } from 'vitest';
import { resultText } from './tool-result.js';

describe('resultText', () => {
  it('joins text blocks, line by line', () => {
    expect(
      resultText(
        {
          content: [
            { type: 'text', text: 'one' },
            { type: 'text', text: 'two' },
          ],
        },
        100,
      ),
    ).toBe('one\ntwo');
  });

  it('says what binary content was left out, with its size', () => {
    const text = resultText(
      {
        content: [
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          { type: 'resource', resource: { uri: 'file:///a.bin', mimeType: 'application/zip', blob: 'AAE=' } },
          { type: 'resource_link', uri: 'file:///b.txt', name: 'b.txt', description: 'the notes' },
        ],
      },
      1_000,
    );

    expect(text).toBe(
      '[audio audio/wav, 3 bytes, not shown]\n[resource file:///a.bin application/zip, 2 bytes, not shown]\n[resource link file:///b.txt "b.txt": the notes]',
    );
  });

  it('gives the structured content as JSON when there is no other content', () => {
    expect(resultText({ content: [], structuredContent: { temperature: 21 } }, 100)).toBe(
      '{"temperature":21}',
    );
    expect(resultText({ content: [{ type: 'text', text: 'warm' }], structuredContent: { t: 21 } }, 100)).toBe(
      'warm',
    );
  });

  it('cuts a text past maxChars and says how long it was', () => {
    expect(resultText({ content: [{ type: 'text', text: 'abcdef' }] }, 4)).toBe(
      'abcd\n[The result was cut here: it had 6 characters, of which the first 4 are shown.]',
    );
    expect(resultText({ content: [{ type: 'text', text: 'abcd' }] }, 4)).toBe('abcd');
  });
});
