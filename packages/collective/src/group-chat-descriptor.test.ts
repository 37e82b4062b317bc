import { describe, expect, it } from 'vitest';
import type { GroupChatResult } from './group-chat.js';
import { groupChatConfigSchema, groupChatDescriptor } from './group-chat-descriptor.js';
import { scripted, slowToComply } from './test-helpers.js';

describe('groupChatDescriptor', () => {
  it('builds a chat of every agent with the given config', async () => {
    const quiet = () => ({ score: 0, message: 'nothing' });
    const chat = groupChatDescriptor.create(
      [slowToComply('a', 0, quiet).agent, slowToComply('b', 0, quiet).agent],
      {
        threshold: 0.2,
      },
    );
    const result = (await chat.run('topic')) as GroupChatResult;
    expect(chat.type).toBe('GroupChat');
    expect(result.endedBy).toBe('threshold');
  });

  it('gives a worst case equal to a chat that runs to maxMessages with every bid repaired', async () => {
    const config = { maxMessages: 3, maxRepairs: 1 };
    const eager = () => ({ score: 1, message: 'more' });
    const agents = [slowToComply('a', 1, eager).agent, slowToComply('b', 1, eager).agent];
    const worst = groupChatDescriptor.worstCase?.(agents, config);
    const result = (await groupChatDescriptor.create(agents, config).run('topic')) as GroupChatResult;
    expect(worst).toEqual({ maxCalls: 3 * 2 * 2 });
    expect(result.llmCalls).toBe(worst?.maxCalls);
    expect(result.endedBy).toBe('maxMessages');
  });

  it('counts the default maxMessages (12) and maxRepairs (2) when the config gives none', async () => {
    const eager = () => ({ score: 1, message: 'more' });
    const agents = [slowToComply('a', 2, eager).agent, slowToComply('b', 2, eager).agent];
    const worst = groupChatDescriptor.worstCase?.(agents, {});
    const result = (await groupChatDescriptor.create(agents, {}).run('topic')) as GroupChatResult;
    expect(worst).toEqual({ maxCalls: 12 * 2 * 3 });
    expect(result.llmCalls).toBe(worst?.maxCalls);
    expect(result.messages).toHaveLength(12);
  });

  it('counts the winner writing its message in intent bidding', async () => {
    const config = { maxMessages: 2, maxRepairs: 0, bidding: 'intent' as const };
    const eager = () => ({ score: 1, intent: 'more' });
    // The first in speaking order (a) always writes an empty message, so b writes too, every round.
    const writer = (name: string, text: string) =>
      scripted(name, (request) =>
        typeof request.toolChoice === 'object'
          ? { text: '', toolCalls: [{ name: 'respond', arguments: eager() }] }
          : text,
      ).agent;
    const agents = [writer('a', ''), writer('b', 'b writes')];
    const worst = groupChatDescriptor.worstCase?.(agents, config);
    const result = (await groupChatDescriptor.create(agents, config).run('topic')) as GroupChatResult;
    expect(worst).toEqual({ maxCalls: 2 * (2 + 2) });
    expect(result.llmCalls).toBe(worst?.maxCalls);
    expect(result.messages.map((m) => m.agent)).toEqual(['b', 'b']);
  });

  it('validates its config', () => {
    expect(groupChatConfigSchema.safeParse({ threshold: 2 }).success).toBe(false);
    expect(groupChatConfigSchema.safeParse({ threshold: 1 }).success).toBe(false);
    expect(groupChatConfigSchema.safeParse({ bidding: 'intent', promptBias: 'reserved' }).success).toBe(true);
  });
});
