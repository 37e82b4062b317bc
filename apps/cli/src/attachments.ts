import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
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
export function readAttachments(paths: readonly string[], option: string): ReadAttachments {
  const parts: ContentPart[] = [];
  const problems: string[] = [];
  for (const path of paths) {
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
