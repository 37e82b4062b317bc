// Helpers the tests share: AI SDK results and streams in the shapes a provider returns.
import type {
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import type { SwarmEvent } from '@swarm/core';

/** AI SDK usage with the given totals and details (unset details undefined, as providers leave them). */
export function usage(
  input: number,
  output: number,
  details: { cacheRead?: number; cacheWrite?: number; reasoning?: number } = {},
): LanguageModelV4Usage {
  return {
    inputTokens: {
      total: input,
      noCache: input - (details.cacheRead ?? 0) - (details.cacheWrite ?? 0),
      cacheRead: details.cacheRead,
      cacheWrite: details.cacheWrite,
    },
    outputTokens: {
      total: output,
      text: output - (details.reasoning ?? 0),
      reasoning: details.reasoning,
    },
  };
}

/** A finish reason as providers report it. */
export function finish(
  unified: LanguageModelV4FinishReason['unified'],
  raw: string = unified,
): LanguageModelV4FinishReason {
  return { unified, raw };
}

/** A `doGenerate` result with the given content. */
export function generated(
  content: LanguageModelV4Content[],
  options: {
    finishReason?: LanguageModelV4FinishReason;
    usage?: LanguageModelV4Usage;
    modelId?: string;
  } = {},
): LanguageModelV4GenerateResult {
  return {
    content,
    finishReason: options.finishReason ?? finish('stop'),
    usage: options.usage ?? usage(10, 5),
    warnings: [],
    ...(options.modelId !== undefined && { response: { modelId: options.modelId } }),
  };
}

/** A `doStream` result that sends `parts` and ends. */
export function streamed(parts: LanguageModelV4StreamPart[]): LanguageModelV4StreamResult {
  return {
    stream: new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

/** The parts of a streamed text answer: the text in the given pieces, then `finish`. */
export function textParts(
  pieces: string[],
  end: LanguageModelV4StreamPart[] = [],
): LanguageModelV4StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't1' },
    ...pieces.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't1', delta })),
    { type: 'text-end', id: 't1' },
    ...end,
  ];
}

/** The `model.delta` texts of a trace, joined per agent. */
export function deltasByAgent(events: SwarmEvent[]): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const event of events) {
    if (event.type === 'model.delta') {
      const agent = String(event.agent);
      texts[agent] = (texts[agent] ?? '') + String(event.delta);
    }
  }
  return texts;
}
