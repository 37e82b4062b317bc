import type { ToolCall } from '../types.js';

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
