import type { Model } from '../contracts/model.js';
import { type OpenAIModelOptions, openaiModel } from './openai.js';

/** Where an OpenAI-compatible service lives and which variables configure it. */
export interface OpenAICompatiblePreset {
  /** The prefix in model strings (`'ollama'` for `'ollama:llama3.2'`), also the provider name. */
  provider: string;
  defaultBaseURL: string;
  baseURLEnv: string;
  apiKeyEnv: string;
  /** False for local servers that accept any key. */
  requireApiKey: boolean;
}

/** The OpenAI-compatible services `resolveModel` knows by prefix. */
export const openaiCompatiblePresets: readonly OpenAICompatiblePreset[] = [
  local('ollama', 'http://localhost:11434/v1', 'OLLAMA'),
  local('vllm', 'http://localhost:8000/v1', 'VLLM'),
  local('lmstudio', 'http://localhost:1234/v1', 'LMSTUDIO'),
  hosted('openrouter', 'https://openrouter.ai/api/v1', 'OPENROUTER'),
  hosted('google', 'https://generativelanguage.googleapis.com/v1beta/openai/', 'GEMINI'),
  hosted('groq', 'https://api.groq.com/openai/v1', 'GROQ'),
  hosted('together', 'https://api.together.xyz/v1', 'TOGETHER'),
  hosted('deepseek', 'https://api.deepseek.com/v1', 'DEEPSEEK'),
  hosted('mistral', 'https://api.mistral.ai/v1', 'MISTRAL'),
  hosted('xai', 'https://api.x.ai/v1', 'XAI'),
];

function local(provider: string, defaultBaseURL: string, envPrefix: string): OpenAICompatiblePreset {
  return {
    provider,
    defaultBaseURL,
    baseURLEnv: `${envPrefix}_BASE_URL`,
    apiKeyEnv: `${envPrefix}_API_KEY`,
    requireApiKey: false,
  };
}

function hosted(provider: string, defaultBaseURL: string, envPrefix: string): OpenAICompatiblePreset {
  return {
    provider,
    defaultBaseURL,
    baseURLEnv: `${envPrefix}_BASE_URL`,
    apiKeyEnv: `${envPrefix}_API_KEY`,
    requireApiKey: true,
  };
}

/** A Model on an OpenAI-compatible service, configured by its preset; `options` override the preset. */
export function openaiCompatibleModel(
  preset: OpenAICompatiblePreset,
  model: string,
  options: OpenAIModelOptions = {},
): Model {
  return openaiModel(model, {
    provider: preset.provider,
    defaultBaseURL: preset.defaultBaseURL,
    baseURLEnv: preset.baseURLEnv,
    apiKeyEnv: preset.apiKeyEnv,
    requireApiKey: preset.requireApiKey,
    maxTokensParam: 'max_tokens',
    ...options,
  });
}
