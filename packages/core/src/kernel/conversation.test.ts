import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Conversation } from './conversation.js';
import { ConfigError } from './errors.js';

function sample(): Conversation {
  const c = new Conversation();
  c.add('user', 'Plan a trip to Rome.');
  c.add('assistant', 'Day 1: Colosseum.', 'planner');
  c.add('assistant', 'Looks good.', 'critic');
  return c;
}

describe('Conversation', () => {
  it('gives an agent its own turns as assistant and the others as named user turns', () => {
    expect(sample().toMessages('critic')).toEqual([
      { role: 'user', content: 'Plan a trip to Rome.' },
      { role: 'user', name: 'planner', content: 'Day 1: Colosseum.' },
      { role: 'assistant', content: 'Looks good.' },
    ]);
  });

  it('formats as final, all, list, json and markdown', () => {
    const c = sample();
    expect(c.format('final')).toBe('Looks good.');
    expect(c.format('all')).toBe(
      'user: Plan a trip to Rome.\nplanner: Day 1: Colosseum.\ncritic: Looks good.',
    );
    expect(c.format('list')).toEqual([
      'user: Plan a trip to Rome.',
      'planner: Day 1: Colosseum.',
      'critic: Looks good.',
    ]);
    expect(JSON.parse(c.format('json')).entries).toHaveLength(3);
    expect(c.format('markdown')).toBe(
      '### user\n\nPlan a trip to Rome.\n\n### planner\n\nDay 1: Colosseum.\n\n### critic\n\nLooks good.',
    );
    expect(() => c.format('xml' as 'all')).toThrow(ConfigError);
  });

  it('round-trips through save and load, and through JSON', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'swarm-conv-'));
    const path = join(dir, 'nested', 'conv.json');
    const c = sample();
    await c.save(path);
    const loaded = await Conversation.load(path);
    expect(loaded.entries).toEqual(c.entries);
    expect(Conversation.fromJSON(JSON.parse(JSON.stringify(c))).entries).toEqual(c.entries);
    expect(await readdir(join(dir, 'nested'))).toEqual(['conv.json']);
  });

  it('replaces a saved file whole, leaving no temp file behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'swarm-conv-'));
    const path = join(dir, 'conv.json');
    await writeFile(path, 'old');
    await sample().save(path);
    expect(JSON.parse(await readFile(path, 'utf8')).entries).toHaveLength(3);
    expect(await readdir(dir)).toEqual(['conv.json']);
  });

  it('refuses to load something that is not a saved conversation', async () => {
    expect(() => Conversation.fromJSON({ entries: [{ role: 'robot' }] })).toThrow(ConfigError);
    const dir = await mkdtemp(join(tmpdir(), 'swarm-conv-'));
    const path = join(dir, 'broken.json');
    await writeFile(path, '{"entries": [');
    const error = await Conversation.load(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(path);
  });

  it('renders system and tool entries with their own roles, and everyone as user without an agent', () => {
    const c = new Conversation();
    c.add('system', 'Be kind.');
    c.add('assistant', 'Hello.', 'host');
    c.add('tool', '42');
    expect(c.toMessages()).toEqual([
      { role: 'system', content: 'Be kind.' },
      { role: 'user', name: 'host', content: 'Hello.' },
      { role: 'tool', content: '42' },
    ]);
  });
});
