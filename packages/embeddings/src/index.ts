export { type CachedEmbedder, type CachedEmbedderOptions, cachedEmbedder } from './cached-embedder.js';
export { cosineSimilarity } from './cosine-similarity.js';
export type { Embedder, EmbedOptions } from './embedder.js';
export { type LocalEmbedderOptions, localEmbedder } from './local-embedder.js';
export { type OpenAIEmbedderOptions, openaiEmbedder } from './openai-embedder.js';
export { type EmbedderSpecOptions, embedder } from './resolve-embedder.js';
export { englishStopWords } from './stop-words.js';
export { tokenize } from './tokenize.js';
export { topK, VectorIndex, type VectorMatch } from './vector-index.js';
export {
  lookUp,
  type SentenceVectorOptions,
  sentenceVector,
  type WordVectorEmbedderOptions,
  wordVectorEmbedder,
} from './word-vector-embedder.js';
export { loadWordVectors, parseWordVectors, type WordVectors } from './word-vectors.js';
