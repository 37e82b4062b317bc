/**
 * JSON text of a run's result or trace that never throws: an `Error` becomes
 * `{ name, message, code? }`, a repeated reference to an object still being written becomes
 * `"[Circular]"`, a bigint its decimal string, a Map or Set an object or array. Everything else is
 * as `JSON.stringify` writes it.
 */
export function toJson(value: unknown, indent = 2): string {
  const open: object[] = [];
  const walk = (item: unknown): unknown => {
    if (typeof item === 'bigint') return item.toString();
    if (typeof item !== 'object' || item === null) return item;
    if (open.includes(item)) return '[Circular]';
    const json = (item as { toJSON?: () => unknown }).toJSON;
    if (typeof json === 'function' && !(item instanceof Error)) return walk(json.call(item));
    open.push(item);
    try {
      if (item instanceof Error) {
        const code = (item as { code?: unknown }).code;
        return { name: item.name, message: item.message, ...(code !== undefined && { code: walk(code) }) };
      }
      if (item instanceof Map) return walk(Object.fromEntries(item));
      if (item instanceof Set || Array.isArray(item)) return [...item].map((v) => walk(v) ?? null);
      const out: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(item)) {
        const w = walk(v);
        if (w !== undefined && typeof w !== 'function' && typeof w !== 'symbol') out[key] = w;
      }
      return out;
    } finally {
      open.pop();
    }
  };
  return JSON.stringify(walk(value), null, indent);
}
