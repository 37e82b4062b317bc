import { nodeBuiltin } from './node-builtin.js';

type Fs = typeof import('node:fs/promises');
type Path = typeof import('node:path');

/** A temp file older than this is an orphan whoever wrote it: no write takes ten minutes. */
const STALE_TEMP_MS = 10 * 60_000;

/**
 * Writes a file so that readers see either the old content or the new, never a truncated mix: the
 * data goes to a temp file beside the target, is flushed to disk, then renamed over it, and the
 * directory is synced so the rename survives a power loss. Needs Node.js (its file system): in a
 * browser or an edge runtime it throws a `ConfigError`.
 *
 * The temp file is named `.<target>.<pid>.<random>.tmp`. A process killed mid-write leaves it
 * behind, so each write first removes the stale temp files of the same target: those of a process
 * that no longer runs on this host, and any older than ten minutes.
 */
export async function writeFileAtomic(path: string, data: string): Promise<void> {
  const instead = 'use a storage API of the runtime there.';
  const fs = nodeBuiltin<Fs>('node:fs/promises', 'writeFileAtomic', instead);
  const { basename, dirname, join } = nodeBuiltin<Path>('node:path', 'writeFileAtomic', instead);
  const { randomBytes } = nodeBuiltin<typeof import('node:crypto')>(
    'node:crypto',
    'writeFileAtomic',
    instead,
  );
  const dir = dirname(path);
  await fs.mkdir(dir, { recursive: true });
  const prefix = `.${basename(path)}.`;
  await removeStaleTemps(fs, join, dir, prefix);
  const temp = join(dir, `${prefix}${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await fs.open(temp, 'w');
    try {
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, path);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(fs, dir);
}

// Removes the orphaned temp files of one target; a temp another live writer is filling is kept.
async function removeStaleTemps(fs: Fs, join: Path['join'], dir: string, prefix: string): Promise<void> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const now = Date.now();
  await Promise.all(
    names.map(async (name) => {
      if (!name.startsWith(prefix) || !name.endsWith('.tmp')) return;
      const pid = Number(name.slice(prefix.length).split('.')[0]);
      if (!Number.isInteger(pid) || pid <= 0) return;
      const file = join(dir, name);
      if (pid !== process.pid && !isRunning(pid)) {
        await fs.rm(file, { force: true });
        return;
      }
      const info = await fs.stat(file).catch(() => undefined);
      if (info && now - info.mtimeMs > STALE_TEMP_MS) await fs.rm(file, { force: true });
    }),
  );
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// Makes the rename itself durable. Some platforms (Windows) cannot open a directory for syncing;
// there the rename is still atomic, only its durability on power loss is up to the OS.
async function syncDirectory(fs: Fs, dir: string): Promise<void> {
  let handle: Awaited<ReturnType<Fs['open']>> | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EACCES') throw error;
  } finally {
    await handle?.close();
  }
}
