import { describe, expect, it } from 'vitest';
import { escapeHtml, html } from './html.js';

describe('html', () => {
  it('escapes every value, whatever its declared type, and writes nested markup as it is', () => {
    const tokens = '<img src=x onerror=alert(1)>' as unknown as number;
    const cell = html`<td title="${'"quoted"'}">${tokens}</td>`;
    expect(html`<tr>${[cell, cell]}${undefined}${null}${0}</tr>`.markup).toBe(
      `<tr>${'<td title="&quot;quoted&quot;">&lt;img src=x onerror=alert(1)&gt;</td>'.repeat(2)}0</tr>`,
    );
  });

  it('escapes a string that merely looks like markup it built', () => {
    const built = html`<b>x</b>`;
    expect(html`${String(built)}`.markup).toBe(escapeHtml('<b>x</b>'));
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});
