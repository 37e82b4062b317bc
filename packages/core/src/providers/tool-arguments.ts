import type { ToolCall } from '../contracts/model.js';

/** Builds a ToolCall from the raw JSON argument text a provider sent; unparseable text is kept, never lost. */
export function toolCallFromJson(id: string, name: string, json: string): ToolCall {
  if (json.trim() === '') return { id, name, arguments: {} };
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return { id, name, arguments: parsed as Record<string, unknown> };
    }
  } catch {
    // Falls through: the raw text is handed back as `invalidArguments` for the caller to repair.
  }
  return { id, name, arguments: {}, invalidArguments: json };
}

/**
 * Builds a ToolCall from arguments a provider sent as a value (Anthropic's `tool_use.input`): an
 * object is taken as it is; anything else (a string, an array, a number) is kept as
 * `invalidArguments`, so the tool answers "Invalid arguments" as for broken JSON instead of running
 * on `{}` the model never sent.
 */
export function toolCallFromInput(id: string, name: string, input: unknown): ToolCall {
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    return { id, name, arguments: input as Record<string, unknown> };
  }
  const raw = typeof input === 'string' ? input : (JSON.stringify(input) ?? String(input));
  return { id, name, arguments: {}, invalidArguments: raw };
}
