/** Markup built by `html`: the only thing a template writes into the page as it is. */
export class Html {
  readonly markup: string;

  constructor(markup: string) {
    this.markup = markup;
  }

  toString(): string {
    return this.markup;
  }
}

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as HTML text or a quoted attribute value: whatever it holds, it stays text. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => entities[c]!);
}

/**
 * A template that escapes every value written into it, numbers included: a trace comes from
 * providers and models, and a field typed as a number can arrive as `<script>`. Only `Html` (and
 * arrays of it) from a nested `html` goes in as markup; `undefined` and `null` write nothing.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let markup = strings[0]!;
  values.forEach((value, i) => {
    markup += write(value) + strings[i + 1]!;
  });
  return new Html(markup);
}

function write(value: unknown): string {
  if (value instanceof Html) return value.markup;
  if (Array.isArray(value)) return value.map(write).join('');
  return escapeHtml(value);
}
