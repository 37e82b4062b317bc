import type {
  LanguageModelV4CallOptions,
  LanguageModelV4FilePart,
  LanguageModelV4FunctionTool,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4TextPart,
  LanguageModelV4ToolChoice,
  LanguageModelV4ToolResultPart,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';
import {
  ConfigError,
  type ContentPart,
  type Message,
  type ModelRequest,
  messageText,
  type ToolChoice,
  type ToolDefinition,
  validateContentParts,
} from '@swarm/core';

/** What every call of one `aiSdkModel` sends besides the request: provider options and headers. */
export interface CallDefaults {
  providerOptions?: SharedV4ProviderOptions | undefined;
  headers?: Record<string, string | undefined> | undefined;
}

/**
 * The AI SDK call options of a swarm request, without the signal (each attempt brings its own).
 * Throws a ConfigError for a request no provider could take: a tool turn that answers no call.
 */
export function toCallOptions(
  request: ModelRequest,
  defaults: CallDefaults,
): Omit<LanguageModelV4CallOptions, 'abortSignal'> {
  const options: Omit<LanguageModelV4CallOptions, 'abortSignal'> = { prompt: toPrompt(request) };
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    options.tools = tools.map(toFunctionTool);
    if (request.toolChoice !== undefined) options.toolChoice = toToolChoice(request.toolChoice);
  }
  if (request.temperature !== undefined) options.temperature = request.temperature;
  if (request.maxTokens !== undefined) options.maxOutputTokens = request.maxTokens;
  if (defaults.providerOptions !== undefined) options.providerOptions = defaults.providerOptions;
  if (defaults.headers !== undefined) options.headers = defaults.headers;
  return options;
}

/**
 * The system prompt and typed turns as an AI SDK prompt. A tool result needs its tool's name, which
 * a swarm tool turn does not carry: it is taken from the assistant turn that made the call.
 */
export function toPrompt(request: ModelRequest): LanguageModelV4Prompt {
  const prompt: LanguageModelV4Prompt = [];
  if (request.system) prompt.push({ role: 'system', content: request.system });
  const toolNames = new Map<string, string>();
  for (const message of request.messages) {
    const converted = toMessage(message, toolNames);
    const last = prompt.at(-1);
    // Results of one turn's calls go back together, as every provider wants them.
    if (converted.role === 'tool' && last?.role === 'tool') last.content.push(...converted.content);
    else prompt.push(converted);
  }
  return prompt;
}

function toMessage(message: Message, toolNames: Map<string, string>): LanguageModelV4Message {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: textOf(message) };
    case 'user': {
      // The AI SDK prompt has no speaker name: another agent's turn says who spoke, as for Anthropic.
      const tag = message.name ? `[${message.name}] ` : '';
      if (typeof message.content === 'string') {
        return { role: 'user', content: [{ type: 'text', text: tag + message.content }] };
      }
      const parts = validateContentParts(message.content, 'message content').map(toUserPart);
      if (tag !== '') parts.unshift({ type: 'text', text: tag.trimEnd() });
      return { role: 'user', content: parts };
    }
    case 'assistant': {
      const content: Extract<LanguageModelV4Message, { role: 'assistant' }>['content'] = [];
      const text = textOf(message);
      if (text) content.push({ type: 'text', text });
      for (const call of message.toolCalls ?? []) {
        toolNames.set(call.id, call.name);
        content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.arguments });
      }
      return { role: 'assistant', content };
    }
    case 'tool': {
      if (!message.toolCallId) {
        throw new ConfigError('A tool message needs the toolCallId of the call it answers.');
      }
      const toolName = toolNames.get(message.toolCallId);
      if (toolName === undefined) {
        throw new ConfigError(
          `A tool message answers the call ${JSON.stringify(message.toolCallId)}, which no earlier assistant turn made: AI SDK providers need the tool's name from that turn.`,
        );
      }
      const result: LanguageModelV4ToolResultPart = {
        type: 'tool-result',
        toolCallId: message.toolCallId,
        toolName,
        output: { type: 'text', value: textOf(message) },
      };
      return { role: 'tool', content: [result] };
    }
  }
}

// Images and files go to the model in user turns; a system, assistant or tool turn is text only.
function textOf(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  const other = message.content.find((part) => part.type !== 'text');
  if (other !== undefined) {
    throw new ConfigError(
      `An AI SDK prompt takes ${other.type} parts in user messages only, not in a ${message.role} message.`,
    );
  }
  return messageText(message);
}

// A swarm part as an AI SDK prompt part: an image is a file part of media type image (or its own).
function toUserPart(part: ContentPart): LanguageModelV4TextPart | LanguageModelV4FilePart {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'file') {
    const file: LanguageModelV4FilePart = {
      type: 'file',
      data: { type: 'data', data: part.data },
      mediaType: part.mediaType,
    };
    if (part.filename !== undefined) file.filename = part.filename;
    return file;
  }
  if (!('url' in part))
    return { type: 'file', data: { type: 'data', data: part.data }, mediaType: part.mediaType };
  const inline = /^data:([^;,]+);base64,(.*)$/s.exec(part.url);
  if (inline !== null)
    return { type: 'file', data: { type: 'data', data: inline[2]! }, mediaType: inline[1]! };
  return { type: 'file', data: { type: 'url', url: imageUrl(part.url) }, mediaType: 'image' };
}

function imageUrl(url: string): URL {
  try {
    return new URL(url);
  } catch (error) {
    throw new ConfigError(`An image url must be an absolute URL (got ${JSON.stringify(url)}).`, {
      cause: error,
    });
  }
}

// A frozen definition (every Tool's) cannot change, so its AI SDK form is made once.
const functionTools = new WeakMap<ToolDefinition, LanguageModelV4FunctionTool>();

function toFunctionTool(tool: ToolDefinition): LanguageModelV4FunctionTool {
  const cached = functionTools.get(tool);
  if (cached !== undefined) return cached;
  const converted: LanguageModelV4FunctionTool = {
    type: 'function',
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters,
  };
  if (Object.isFrozen(tool)) functionTools.set(tool, converted);
  return converted;
}

function toToolChoice(choice: ToolChoice): LanguageModelV4ToolChoice {
  return typeof choice === 'string' ? { type: choice } : { type: 'tool', toolName: choice.name };
}
