import { readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { ContentPart } from '@swarm/core';

// The file types both built-in providers take, by extension: images, PDFs and plain text.
const mediaTypes: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.md': 'text/plain',
};

/** Files read as content parts, and what was wrong with the others (one line each). */
export interface ReadAttachments {
  parts: ContentPart[];
  problems: string[];
}

/**
 * Reads `--attach` files (and a spec's `attachments:`) as content parts: images as image parts,
 * PDFs and text as file parts. A missing file or an unknown type is a problem naming `option`.
 */
export function readAttachments(
  paths: readonly string[],
  option: string,
  maxBytes: number = maxAttachmentBytes,
): ReadAttachments {
  const parts: ContentPart[] = [];
  const problems: string[] = [];
  for (const path of paths) {
    let size: number | undefined;
    try {
      size = statSync(resolve(path)).size;
    } catch {
      // Unreadable: said below, when reading it.
    }
    if (size !== undefined && size > maxBytes) {
      problems.push(
        `${option} ${path}: ${mib(size)} is larger than the ${mib(maxBytes)} an attachment may be`,
      );
      continue;
    }
    const mediaType = mediaTypes[extname(path).toLowerCase()];
    if (mediaType === undefined) {
      problems.push(
        `${option} ${path}: unknown file type (attach ${Object.keys(mediaTypes).join(', ')} files)`,
      );
      continue;
    }
    let data: Uint8Array;
    try {
      data = new Uint8Array(readFileSync(resolve(path)));
    } catch (error) {
      problems.push(
        `${option} ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      );
      continue;
    }
    const filename = path.split(/[\\/]/).at(-1)!;
    parts.push(
      mediaType.startsWith('image/')
        ? { type: 'image', data, mediaType }
        : { type: 'file', data, mediaType, filename },
    );
  }
  return { parts, problems };
}

/** The largest file an attachment may be: 20 MiB, under what the providers take in one request. */
export const maxAttachmentBytes = 20 * 1024 * 1024;

const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

/** A spec's `attachments:` resolved against its folder, and the entries that may not be read. */
export interface SpecAttachmentPaths {
  paths: string[];
  problems: string[];
}

/**
 * Resolves a spec's `attachments:` (relative to the spec file) and keeps them inside the spec's own
 * folder: a shared spec must not upload a file from elsewhere on disk (`../`, an absolute path, a
 * symbolic link out) to the provider without the user saying so. A path outside is a problem
 * unless it is inside one of `allowPaths` (`--allow-path <dir>`). `--attach` is not checked: the
 * command line is the user's own choice.
 */
export function specAttachmentPaths(
  specPath: string,
  entries: readonly string[],
  allowPaths: readonly string[] = [],
): SpecAttachmentPaths {
  const specDir = dirname(resolve(specPath));
  const roots = [specDir, ...allowPaths.map((dir) => resolve(dir))].map(real);
  const paths: string[] = [];
  const problems: string[] = [];
  for (const entry of entries) {
    const path = resolve(specDir, entry);
    const target = real(path);
    if (!roots.some((root) => inside(root, target))) {
      problems.push(
        `${specPath}: attachments: ${entry}: outside the spec's folder ${specDir}; a spec may attach only its own files (pass --allow-path <dir> to allow another folder)`,
      );
      continue;
    }
    paths.push(path);
  }
  return { paths, problems };
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}
