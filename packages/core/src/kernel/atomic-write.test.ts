import { mkdtemp, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from './atomic-write.js';
import { Conversation } from './conversation.js';

// Simulates a crash in the middle of a write: every write writes half its data, then fails. The
// writer uses Node's own fs module (process.getBuiltinModule, which no bundler follows), so the
// spies sit on that module.
const crash = { on: false };
const fs = process.getBuiltinModule('node:fs/promises');
const real = { open: fs.open, writeFile: fs.writeFile };
beforeAll(() => {
  const half = (data: unknown) => String(data).slice(0, Math.floor(String(data).length / 2));
  vi.spyOn(fs, 'writeFile').mockImplementation((async (
    path: Parameters<typeof fs.writeFile>[0],
    data: unknown,
    ...rest: never[]
  ) => {
    if (!crash.on) return real.writeFile(path, data as string, ...rest);
    await real.writeFile(path, half(data));
    throw new Error('simulated crash');
  }) as typeof fs.writeFile);
  vi.spyOn(fs, 'open').mockImplementation(async (...args: Parameters<typeof fs.open>) => {
    const handle = await real.open(...args);
    if (!crash.on) return handle;
    return new Proxy(handle, {
      get(target, key) {
        if (key === 'writeFile' || key === 'write') {
          return async (data: unknown) => {
            await target.writeFile(half(data));
            throw new Error('simulated crash');
          };
        }
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  });
});
afterAll(() => {
  vi.restoreAllMocks();
});

afterEach(() => {
  crash.on = false;
});

describe('Conversation.save', () => {
  it('leaves the previous file whole when the write crashes midway', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'swarm-atomic-'));
    const path = join(dir, 'conv.json');
    const before = new Conversation();
    before.add('user', 'The saved version.');
    await before.save(path);
    const saved = await readFile(path, 'utf8');

    const after = new Conversation();
    after.add('user', 'A longer version that never made it to disk in one piece.');
    crash.on = true;
    await expect(after.save(path)).rejects.toThrow(/simulated crash/);
    crash.on = false;

    expect(await readFile(path, 'utf8')).toBe(saved);
    expect((await Conversation.load(path)).entries).toEqual(before.entries);
    expect(await readdir(dir)).toEqual(['conv.json']);
  });
});

describe('writeFileAtomic', () => {
  it('removes the temp files a killed writer left beside the same target, and no others', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'swarm-atomic-'));
    const deadPid = 4_194_305; // above Linux's pid_max: no such process
    const orphan = `.conv.json.${deadPid}.0123456789ab.tmp`;
    const oldOwn = `.conv.json.${process.pid}.aaaaaaaaaaaa.tmp`;
    const liveOwn = `.conv.json.${process.pid}.bbbbbbbbbbbb.tmp`;
    const otherTarget = `.other.json.${deadPid}.cccccccccccc.tmp`;
    for (const name of [orphan, oldOwn, liveOwn, otherTarget]) await writeFile(join(dir, name), '{"half": ');
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(join(dir, oldOwn), hourAgo, hourAgo);

    await writeFileAtomic(join(dir, 'conv.json'), '{"whole": true}');

    // A fresh temp of a live writer may be a write in progress: it stays, as do other targets' temps.
    expect((await readdir(dir)).sort()).toEqual([liveOwn, otherTarget, 'conv.json'].sort());
    expect(await readFile(join(dir, 'conv.json'), 'utf8')).toBe('{"whole": true}');
  });
});
