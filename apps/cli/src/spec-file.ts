import { readFileSync } from 'node:fs';
import { isNode, isScalar, LineCounter, parseDocument } from 'yaml';
import { CliError } from './cli-error.js';

/** A spec file read and parsed, able to say where in the file a spec path is. */
export interface SpecFile {
  path: string;
  data: unknown;
  /**
   * `file:line:col` of the value at a spec path such as `agents[1].tools[0]` (or of its nearest
   * parent); `column` (1-based, inside a one-line string value) moves to that character of it.
   */
  where(specPath: string, column?: number): string;
}

/** Reads a YAML or JSON spec (JSON is YAML); a syntax error is one line naming the place. */
export function readSpecFile(path: string): SpecFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      `${path}: cannot read the spec (${code === 'ENOENT' ? 'no such file' : String(code)})`,
      2,
    );
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const syntax = doc.errors[0];
  if (syntax) {
    const at = lineCounter.linePos(syntax.pos[0]);
    const message = syntax.message.split('\n')[0]!.replace(/ at line \d+, column \d+.*$/, '');
    throw new CliError(`${path}:${at.line}:${at.col}: invalid YAML: ${message}`, 2);
  }
  const data: unknown = doc.toJS();
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new CliError(`${path}:1:1: a spec is a mapping with agents, topology and config`, 2);
  }
  return {
    path,
    data,
    where(specPath, column) {
      const keys = parsePath(specPath);
      for (let n = keys.length; n >= 0; n--) {
        const node = doc.getIn(keys.slice(0, n), true);
        if (isNode(node) && node.range) {
          let offset = node.range[0];
          if (column !== undefined && n === keys.length && isScalar(node) && typeof node.value === 'string') {
            const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE';
            const inside = text.slice(offset + (quoted ? 1 : 0), node.range[1]);
            if (!inside.includes('\n') && column <= node.value.length)
              offset += (quoted ? 1 : 0) + column - 1;
          }
          const at = lineCounter.linePos(offset);
          return `${path}:${at.line}:${at.col}`;
        }
      }
      return `${path}:1:1`;
    },
  };
}

// `agents[1].tools[0]` -> ['agents', 1, 'tools', 0]
function parsePath(specPath: string): (string | number)[] {
  const keys: (string | number)[] = [];
  for (const part of specPath.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    keys.push(part[2] !== undefined ? Number(part[2]) : part[1]!);
  }
  return keys;
}
