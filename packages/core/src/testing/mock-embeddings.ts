// The OpenAI-compatible embeddings endpoint of the mock provider server.
import type { ServerResponse } from 'node:http';
import { fnv1a } from '../kernel/hash.js';
import type { MockProviderServerOptions } from './mock-types.js';
import { estimateTokens, noRetry, sendError, sendJson } from './mock-wire.js';

/** Answers an embeddings request: the `embed` handler's vectors, or deterministic hashed ones. */
export async function sendEmbeddings(
  res: ServerResponse,
  body: Record<string, unknown>,
  options: MockProviderServerOptions,
): Promise<void> {
  const input = body.input;
  const texts = typeof input === 'string' ? [input] : Array.isArray(input) ? input : undefined;
  if (!texts || texts.some((text) => typeof text !== 'string')) {
    sendError(
      res,
      'embeddings',
      400,
      'invalid_request_error',
      'mockProviderServer: input must be a string or strings',
      noRetry,
    );
    return;
  }
  const strings = texts as string[];
  const dimensions =
    typeof body.dimensions === 'number' ? body.dimensions : (options.embeddingDimensions ?? 64);
  const vectors = options.embed
    ? await options.embed(strings)
    : strings.map((text) => hashEmbedding(text, dimensions));
  const base64 = body.encoding_format === 'base64';
  const tokens = strings.reduce((sum, text) => sum + estimateTokens(text), 0);
  sendJson(res, 200, {
    object: 'list',
    model: typeof body.model === 'string' ? body.model : 'mock-embedding',
    data: vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector,
    })),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

/**
 * A unit vector summing one pseudo-random direction per word, so the same text always gets the same
 * vector and texts sharing words are closer than texts that share none.
 */
function hashEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [text];
  for (const word of words) {
    let state = fnv1a(word);
    for (let i = 0; i < dimensions; i++) {
      // mulberry32
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      vector[i] = (vector[i] ?? 0) + (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
    }
  }
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0)) || 1;
  return vector.map((value) => value / norm);
}
