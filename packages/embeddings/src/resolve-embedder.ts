import { ConfigError, openaiCompatiblePresets } from '@swarm/core';
import type { Embedder } from './embedder.js';
import { type LocalEmbedderOptions, localEmbedder } from './local-embedder.js';
import { type OpenAIEmbedderOptions, openaiEmbedder } from './openai-embedder.js';
import { wordVectorEmbedder } from './word-vector-embedder.js';

/** What `embedder()` accepts besides the spec: options for whichever embedder the spec names. */
export type EmbedderSpecOptions = OpenAIEmbedderOptions & LocalEmbedderOptions;

/**
 * Builds an Embedder from a spec string: `'local'`, `'words'` (`wordVectorEmbedder()`: packaged word
 * vectors mixed with the local embedder, whose options apply to its lexical part), `'openai:<model>'`, or an OpenAI-compatible
 * `'<prefix>:<model>'` (every prefix `resolveModel` knows: ollama, vllm, lmstudio, openrouter, google, groq, ...). An Embedder
 * passes through, so options can take either.
 */
export function embedder(spec: string | Embedder, options: EmbedderSpecOptions = {}): Embedder {
  if (typeof spec !== 'string') {
    if (typeof spec?.embed === 'function' && typeof spec.id === 'string') return spec;
    throw new ConfigError(`embedder: expected an Embedder or a spec string. ${acceptedForms()}`);
  }
  const trimmed = spec.trim();
  if (trimmed === 'local') return localEmbedder(options);
  if (trimmed === 'words') {
    const { dimensions, charNgrams, stopWords } = options;
    return wordVectorEmbedder({
      ...(stopWords !== undefined && { stopWords }),
      lexical: {
        ...(dimensions !== undefined && { dimensions }),
        ...(charNgrams !== undefined && { charNgrams }),
      },
    });
  }
  const colon = trimmed.indexOf(':');
  const prefix = colon === -1 ? '' : trimmed.slice(0, colon).toLowerCase();
  const model = colon === -1 ? '' : trimmed.slice(colon + 1).trim();
  if (colon === -1 || model === '') {
    throw new ConfigError(`embedder: ${JSON.stringify(spec)} names no model. ${acceptedForms()}`);
  }
  if (prefix === 'openai') return openaiEmbedder(model, options);
  const preset = openaiCompatiblePresets.find((p) => p.provider === prefix);
  if (!preset) {
    throw new ConfigError(
      `embedder: unknown provider "${prefix}" in ${JSON.stringify(spec)}. ${acceptedForms()}`,
    );
  }
  const { provider, defaultBaseURL, apiKeyEnv, baseURLEnv, requireApiKey } = preset;
  return openaiEmbedder(model, {
    provider,
    defaultBaseURL,
    apiKeyEnv,
    baseURLEnv,
    requireApiKey,
    ...options,
  });
}

function acceptedForms(): string {
  const prefixes = ['openai', ...openaiCompatiblePresets.map((p) => p.provider)].map(
    (prefix) => `"${prefix}:<model>"`,
  );
  return `Accepted forms: "local", "words", ${prefixes.join(', ')}, or an Embedder object.`;
}
