import type { Message, ModelResponse, Reasoning, ReasoningBlock } from '../contracts/model.js';
import { RefusalError } from '../kernel/errors.js';

/** What an adapter does with a refusal: throw a `RefusalError` (default), or return it as the answer. */
export type RefusalHandling = 'error' | 'answer';

/**
 * The reasoning of a response made of blocks (Anthropic), or undefined when it had none. The
 * readable text is the thinking blocks' text joined by a blank line.
 */
export function reasoningOfBlocks(blocks: readonly ReasoningBlock[]): Reasoning | undefined {
  if (blocks.length === 0) return undefined;
  const texts: string[] = [];
  for (const block of blocks) if (block.type === 'thinking' && block.text !== '') texts.push(block.text);
  return { text: texts.join('\n\n'), blocks: [...blocks] };
}

/** The `RefusalError` of a refused answer, its message naming the provider and what it said. */
export function refusalError(
  provider: string,
  details: { category?: string | null | undefined; explanation?: string | null | undefined },
): RefusalError {
  const category = details.category ?? undefined;
  const explanation = details.explanation ?? undefined;
  const said = [category && `category ${category}`, explanation].filter(Boolean).join(': ');
  return new RefusalError(`${provider}: the model refused to answer${said ? ` (${said})` : ''}.`, {
    provider,
    category,
    explanation,
  });
}

/**
 * The assistant turn to append after a response: its text, tool calls and reasoning. Keeping the
 * reasoning is what lets the next request send it back as the provider requires (Anthropic
 * rejects a turn after thinking + tool use without its signed thinking block; DeepSeek's thinking
 * mode wants `reasoning_content` back).
 */
export function assistantTurn(response: ModelResponse): Message {
  return {
    role: 'assistant',
    content: response.text,
    ...(response.toolCalls.length > 0 && { toolCalls: response.toolCalls }),
    ...(response.reasoning !== undefined && { reasoning: response.reasoning }),
  };
}
