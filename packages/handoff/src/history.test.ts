import { describe, expect, it } from 'vitest';
import { formatArguments, type HistoryItem, toMessages } from './history.js';

const thread: HistoryItem[] = [
  { type: 'request', content: 'I was charged twice for invoice 42' },
  {
    type: 'tool',
    agent: 'triage',
    tool: 'lookup_invoice',
    arguments: { invoice_id: '42' },
    result: 'invoice 42: charged twice',
  },
  { type: 'text', agent: 'triage', content: 'Passing this to billing.' },
  { type: 'handoff', from: 'triage', to: 'billing', message: 'duplicate charge on invoice 42' },
];

describe('toMessages', () => {
  it("renders the seed's thread for billing: other agents' turns as named user turns", () => {
    expect(toMessages(thread, 'billing').map((m) => [m.role, m.name, m.content])).toEqual([
      ['user', undefined, 'I was charged twice for invoice 42'],
      ['user', 'triage', '[triage called lookup_invoice({"invoice_id": "42"}) → invoice 42: charged twice]'],
      ['user', 'triage', 'Passing this to billing.'],
      ['user', 'triage', '[Handoff: triage → billing] duplicate charge on invoice 42'],
    ]);
  });

  it("renders an agent's own turns as assistant turns", () => {
    expect(toMessages(thread, 'triage').map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'assistant',
      'assistant',
    ]);
  });
});

describe('formatArguments', () => {
  it('writes JSON with spaces after colons and commas, as the seed markers do', () => {
    expect(formatArguments({ a: '1', b: [1, { c: null }], d: undefined })).toBe(
      '{"a": "1", "b": [1, {"c": null}]}',
    );
  });
});
