import { ConfigError } from '@swarm/core';
import { mockProviderServer } from '@swarm/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cosineSimilarity } from './cosine-similarity.js';
import { embedder } from './resolve-embedder.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('embedder', () => {
  it("builds the word-vector embedder from 'words', passing the local options to its lexical part", async () => {
    const e = embedder('words', { dimensions: 256 });
    expect(e.id).toBe('words:glove+local:256:c3-5@0.5');
    const [car, automobile, banana] = await e.embed(['car', 'automobile', 'banana']);
    expect(car).toHaveLength(100 + 256);
    expect(cosineSimilarity(car!, automobile!)).toBeGreaterThan(cosineSimilarity(car!, banana!) + 0.1);
  });

  it('embeds through the real openai SDK against an OpenAI-compatible /v1/embeddings', async () => {
    const server = await mockProviderServer({ embeddingDimensions: 32 });
    try {
      const e = embedder('openai:text-embedding-3-small', {
        apiKey: 'test-key',
        baseURL: server.openaiBaseURL,
      });
      expect(e.id).toBe('openai:text-embedding-3-small');
      const vectors = await e.embed([
        'tax filing for companies',
        'tax filing for companies',
        'marathon training',
      ]);
      expect(vectors).toHaveLength(3);
      expect(vectors[0]).toBeInstanceOf(Float32Array);
      expect(vectors[0]).toHaveLength(32);
      expect(cosineSimilarity(vectors[0]!, vectors[1]!)).toBeCloseTo(1, 5);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]!.api).toBe('embeddings');
      expect(server.requests[0]!.body.model).toBe('text-embedding-3-small');
      expect(server.requests[0]!.headers.authorization).toBe('Bearer test-key');
    } finally {
      await server.close();
    }
  });

  it('passes dimensions to the endpoint for models that shorten their vectors', async () => {
    const server = await mockProviderServer();
    try {
      const e = embedder('openai:text-embedding-3-small', {
        apiKey: 'k',
        baseURL: server.openaiBaseURL,
        dimensions: 8,
      });
      const [vector] = await e.embed(['hello']);
      expect(vector).toHaveLength(8);
      expect(server.requests[0]!.body.dimensions).toBe(8);
    } finally {
      await server.close();
    }
  });

  it('reads an ollama endpoint from OLLAMA_BASE_URL and needs no key', async () => {
    const server = await mockProviderServer();
    try {
      vi.stubEnv('OLLAMA_BASE_URL', server.openaiBaseURL);
      vi.stubEnv('OLLAMA_API_KEY', '');
      const e = embedder('ollama:nomic-embed-text');
      expect(e.id).toBe('ollama:nomic-embed-text');
      await expect(e.embed(['a'])).resolves.toHaveLength(1);
      expect(server.requests[0]!.body.model).toBe('nomic-embed-text');
    } finally {
      await server.close();
    }
  });

  it('turns a provider failure into a ModelError instead of a zero vector', async () => {
    const server = await mockProviderServer({ handler: () => ({ fault: 'server-error', retryAfterMs: 0 }) });
    try {
      const e = embedder('openai:text-embedding-3-small', {
        apiKey: 'k',
        baseURL: server.openaiBaseURL,
        maxRetries: 0,
      });
      await expect(e.embed(['a'])).rejects.toMatchObject({
        name: 'ModelError',
        status: 500,
        retryable: true,
      });
    } finally {
      await server.close();
    }
  });

  it('reports a missing key at the first call, naming the variable, not at construction', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const e = embedder('openai:text-embedding-3-small');
    await expect(e.embed(['a'])).rejects.toThrow(ConfigError);
    await expect(e.embed(['a'])).rejects.toThrow(/OPENAI_API_KEY/);
  });

  it('builds the local embedder from "local" and passes an Embedder through', () => {
    const local = embedder('local');
    expect(local.id).toMatch(/^local/);
    expect(embedder(local)).toBe(local);
  });

  it('rejects unknown providers and specs without a model, listing the accepted forms', () => {
    expect(() => embedder('acme:model')).toThrow(/unknown provider "acme".*Accepted forms/);
    expect(() => embedder('openai:')).toThrow(ConfigError);
    expect(() => embedder('text-embedding-3-small')).toThrow(/names no model/);
  });
});
