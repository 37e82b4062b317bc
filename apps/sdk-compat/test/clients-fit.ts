// Checked by this package's typecheck (`tsc --noEmit`, part of `pnpm test`): each SDK release's
// client fits the shape swarm calls, and the shapes are not so loose that anything fits.

import type Anthropic from '@anthropic-ai/sdk';
import type { AnthropicMessagesClient, OpenAIChatClient, OpenAIEmbeddingsClient } from '@swarm/core';
import type Anthropic110 from 'anthropic-1-10';
import type OpenAI from 'openai';
import type OpenAI6 from 'openai6';

/** `Client`, if it fits `Shape`; a type error here otherwise. */
type Fits<Shape, Client extends Shape> = Client;

export type OpenAI7Chat = Fits<OpenAIChatClient, OpenAI>;
export type OpenAI6Chat = Fits<OpenAIChatClient, OpenAI6>;
export type OpenAI7Embeddings = Fits<OpenAIEmbeddingsClient, OpenAI>;
export type OpenAI6Embeddings = Fits<OpenAIEmbeddingsClient, OpenAI6>;
export type Anthropic115Messages = Fits<AnthropicMessagesClient, Anthropic>;
export type Anthropic110Messages = Fits<AnthropicMessagesClient, Anthropic110>;

// Why the shapes exist: a client of one release is not of the other's class type.
// @ts-expect-error an openai 6 client is not an openai 7 `OpenAI`
export type SixAsSeven = Fits<OpenAI, OpenAI6>;
// @ts-expect-error an @anthropic-ai/sdk 1.10 client is not a 1.15 `Anthropic`
export type OlderAnthropic = Fits<Anthropic, Anthropic110>;

// @ts-expect-error a client without Chat Completions is no chat client
export type EmbeddingsOnly = Fits<OpenAIChatClient, Pick<OpenAI, 'embeddings'>>;
// @ts-expect-error an Anthropic client is no OpenAI chat client
export type WrongProvider = Fits<OpenAIChatClient, Anthropic>;
// @ts-expect-error a create that answers something else than a completion does not fit
export type WrongAnswer = Fits<OpenAIChatClient, { chat: { completions: { create(): Promise<string> } } }>;
