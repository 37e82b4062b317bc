import type { Model, ModelLike } from '../contracts/model.js';
import { ConfigError } from '../kernel/errors.js';
import { anthropicModel } from '../providers/anthropic.js';
import { openaiModel } from '../providers/openai.js';
import { openaiCompatibleModel, openaiCompatiblePresets } from '../providers/openai-compatible.js';

/** Builds a Model from the part of a model string after `<prefix>:`. */
export type ProviderFactory = (modelName: string) => Model;

// Filled only by `registerProvider`, so importing this module has no side effects.
const registered = new Map<string, ProviderFactory>();

const builtIns = new Map<string, ProviderFactory>([
  ['openai', (name) => openaiModel(name)],
  ['anthropic', (name) => anthropicModel(name)],
  ...openaiCompatiblePresets.map((preset): [string, ProviderFactory] => [
    preset.provider,
    (name) => openaiCompatibleModel(preset, name),
  ]),
]);

const prefixPattern = /^[a-z][a-z0-9_.-]*$/i;

/** Adds (or overrides) the provider behind `<prefix>:<model>` strings; checked before the built-in ones. */
export function registerProvider(prefix: string, factory: ProviderFactory): void {
  if (typeof prefix !== 'string' || !prefixPattern.test(prefix)) {
    throw new ConfigError(
      `registerProvider: prefix must start with a letter and contain only letters, digits, "_", "-" or "."; got ${JSON.stringify(prefix)}.`,
    );
  }
  if (typeof factory !== 'function') {
    throw new ConfigError(
      `registerProvider: factory for "${prefix}" must be a function (modelName) => Model.`,
    );
  }
  registered.set(prefix.toLowerCase(), factory);
}

/** Turns a model string (`'openai:gpt-5.4'`, `'ollama:llama3.2'`, `'claude-opus-4-7'`) into a Model; a Model passes through. */
export function resolveModel(modelLike: ModelLike): Model {
  if (typeof modelLike !== 'string') {
    if (isModel(modelLike)) return modelLike;
    throw new ConfigError(`resolveModel: expected a Model or a model string. ${acceptedForms()}`);
  }
  const spec = modelLike.trim();
  const colon = spec.indexOf(':');
  if (colon === -1) return resolveBareName(spec);

  const prefix = spec.slice(0, colon).toLowerCase();
  const name = spec.slice(colon + 1).trim();
  const factory = registered.get(prefix) ?? builtIns.get(prefix);
  if (!factory) {
    throw new ConfigError(
      `resolveModel: unknown provider "${prefix}" in ${JSON.stringify(modelLike)}. ${acceptedForms()}`,
    );
  }
  if (name === '') {
    throw new ConfigError(
      `resolveModel: ${JSON.stringify(modelLike)} names no model after "${prefix}:". ${acceptedForms()}`,
    );
  }
  return factory(name);
}

function resolveBareName(name: string): Model {
  if (/^(gpt-|chatgpt-|o\d)/i.test(name)) return (registered.get('openai') ?? builtIns.get('openai')!)(name);
  if (/^claude-/i.test(name)) return (registered.get('anthropic') ?? builtIns.get('anthropic')!)(name);
  throw new ConfigError(
    `resolveModel: cannot tell the provider of ${JSON.stringify(name)}. ${acceptedForms()}`,
  );
}

function acceptedForms(): string {
  const prefixes = [...new Set([...registered.keys(), ...builtIns.keys()])].map(
    (prefix) => `"${prefix}:<model>"`,
  );
  return `Accepted forms: ${prefixes.join(', ')}; or a bare "gpt-*", "o<digit>*", "chatgpt-*" (OpenAI) or "claude-*" (Anthropic) name; or a Model object.`;
}

function isModel(value: unknown): value is Model {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Model).id === 'string' &&
    typeof (value as Model).generate === 'function'
  );
}
