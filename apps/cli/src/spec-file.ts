import { readFileSync } from 'node:fs';
import { type Document, isNode, isScalar, LineCounter, parseDocument, visit } from 'yaml';
import { CliError } from './cli-error.js';

/** A place in a spec file, 1-based as editors count. */
export interface SpecPlace {
  line: number;
  col: number;
}

/** A spec file read and parsed, able to say where in the file a spec path is. */
export interface SpecFile {
  path: string;
  data: unknown;
  /**
   * The place of the value at a spec path such as `agents[1].tools[0]` (or of its nearest
   * parent); `column` (1-based, inside a one-line string value) moves to that character of it.
   */
  place(specPath: string, column?: number): SpecPlace;
  /** `file:line:col` of `place(specPath, column)`. */
  where(specPath: string, column?: number): string;
}

/**
 * How much aliases may expand (yaml's `maxAliasCount`, here explicit): a spec has no use for a
 * collection aliased hundreds of times, and a few lines of nested aliases can expand to millions.
 */
export const maxAliasCount = 100;

const stackOverflow = /Maximum call stack size exceeded|stack overflow/i;

/**
 * Reads a YAML or JSON spec (JSON is YAML). Every syntax error, nesting too deep to parse and an
 * alias expansion past `maxAliasCount` is a `CliError` (exit 2), one `file:line:col` line each.
 */
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
  const at = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return `${path}:${line}:${col}`;
  };
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    // Nesting deeper than the parser's stack fails more than once: one line says so.
    const firstOverflow = doc.errors.findIndex((e) => stackOverflow.test(e.message));
    throw new CliError(
      doc.errors
        .filter((e, i) => i === firstOverflow || !stackOverflow.test(e.message))
        .map((e) => {
          const message = stackOverflow.test(e.message)
            ? 'nested too deeply to read'
            : e.message.split('\n')[0]!.replace(/ at line \d+, column \d+.*$/, '');
          return `${at(e.pos[0])}: invalid YAML: ${message}`;
        })
        .join('\n'),
      2,
    );
  }
  const data = toData(doc, at);
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new CliError(`${path}:1:1: a spec is a mapping with agents, topology and config`, 2);
  }
  const place = (specPath: string, column?: number): SpecPlace => {
    const keys = parsePath(specPath);
    for (let n = keys.length; n >= 0; n--) {
      const node = doc.getIn(keys.slice(0, n), true);
      if (isNode(node) && node.range) {
        let offset = node.range[0];
        if (column !== undefined && n === keys.length && isScalar(node) && typeof node.value === 'string') {
          const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE';
          const inside = text.slice(offset + (quoted ? 1 : 0), node.range[1]);
          if (!inside.includes('\n') && column <= node.value.length) offset += (quoted ? 1 : 0) + column - 1;
        }
        return lineCounter.linePos(offset);
      }
    }
    return { line: 1, col: 1 };
  };
  return {
    path,
    data,
    place,
    where(specPath, column) {
      const { line, col } = place(specPath, column);
      return `${path}:${line}:${col}`;
    },
  };
}

// The document as plain data, with yaml's alias limit; a refusal names the alias it stopped at.
function toData(doc: Document, at: (offset: number) => string): unknown {
  // yaml's error does not say where: each alias notes its own range when resolving it fails.
  let failedAt: number | undefined;
  visit(doc, {
    Alias(_key, alias) {
      const toJSON = alias.toJSON.bind(alias);
      alias.toJSON = (arg, ctx) => {
        try {
          return toJSON(arg, ctx);
        } catch (error) {
          failedAt ??= alias.range?.[0];
          throw error;
        }
      };
    },
  });
  try {
    return doc.toJS({ maxAliasCount });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const limit = /alias count/i.test(message) ? ` (aliases expand past the limit of ${maxAliasCount})` : '';
    throw new CliError(`${at(failedAt ?? 0)}: invalid YAML: ${message}${limit}`, 2);
  }
}

// `agents[1].tools[0]` -> ['agents', 1, 'tools', 0]
function parsePath(specPath: string): (string | number)[] {
  const keys: (string | number)[] = [];
  for (const part of specPath.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    keys.push(part[2] !== undefined ? Number(part[2]) : part[1]!);
  }
  return keys;
}
