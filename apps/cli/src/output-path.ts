import { accessSync, constants, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** An output file an option asks for (`--report r.html`). */
export interface OutputFile {
  option: string;
  path: string;
}

/**
 * Why a file given to `option` could not be written, or undefined when it can: checked before a
 * run, so a bad path costs no model call. The directory must exist: a typo is not created.
 */
export function outputFileProblem({ option, path }: OutputFile): string | undefined {
  try {
    return fileProblem(option, path);
  } catch (error) {
    return `${option} ${path}: cannot check the path (${reason(error)})`;
  }
}

function fileProblem(option: string, path: string): string | undefined {
  const existing = stat(path);
  if (existing?.isDirectory()) return `${option} ${path}: is a directory, not a file`;
  if (existing) return writable(path) ? undefined : `${option} ${path}: the file is not writable`;
  const dir = dirname(path);
  const parent = stat(dir);
  if (!parent) return `${option} ${path}: no such directory: ${dir}`;
  if (!parent.isDirectory()) return `${option} ${path}: ${dir} is not a directory`;
  return writable(dir) ? undefined : `${option} ${path}: the directory ${dir} is not writable`;
}

/** Problems of several output files, including two options naming the same file. */
export function outputFileProblems(files: readonly OutputFile[]): string[] {
  const problems = files.flatMap((file) => outputFileProblem(file) ?? []);
  const byPath = new Map<string, string>();
  for (const { option, path } of files) {
    const other = byPath.get(resolve(path));
    if (other) problems.push(`${other} and ${option} both name ${path}: give each its own file`);
    else byPath.set(resolve(path), option);
  }
  return problems;
}

/** Makes the directory given to `option` (and its parents) and checks it is writable; the problem if not. */
export function prepareOutputDir(option: string, dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    return `${option} ${dir}: cannot make the directory (${reason(error)})`;
  }
  return writable(dir) ? undefined : `${option} ${dir}: the directory is not writable`;
}

/** Writes an output file after a run; the problem (naming the option and path) if the write failed. */
export function writeOutput({ option, path }: OutputFile, text: string): string | undefined {
  try {
    writeFileSync(path, text);
    return undefined;
  } catch (error) {
    return `${option} ${path}: not written (${reason(error)})`;
  }
}

// The path's stats, or undefined when nothing is there (a missing path, or a parent that is a
// file); any other failure (a parent that cannot be searched) is thrown.
function stat(path: string) {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

const reasons: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a parent is not a directory',
  EEXIST: 'a file of that name exists',
  ENOSPC: 'no space left on the device',
  EROFS: 'read-only file system',
};

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return (code && reasons[code]) ?? (error instanceof Error ? error.message : String(error));
}
