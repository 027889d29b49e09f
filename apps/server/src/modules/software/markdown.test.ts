import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.js';

describe('update log Markdown', () => {
  it('keeps formatting, lists, tables and safe links', () => {
    const html = renderMarkdown(
      '# New\n\n- **bold** and _em_\n- `code`\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[docs](https://example.com/x)',
    );
    expect(html).toContain('<h1>New</h1>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<em>em</em>');
    expect(html).toContain('<code>code</code>');
    expect(html).toContain('<td>1</td>');
    expect(html).toContain(
      '<a href="https://example.com/x" target="_blank" rel="noopener noreferrer nofollow">docs</a>',
    );
  });

  it('never lets script, event handlers, frames, styles or javascript: links through', () => {
    const attacks = [
      '<script>alert(1)</script>',
      '<img src=x onerror="alert(1)">',
      '<a href="javascript:alert(1)">x</a>',
      '[x](javascript:alert(1))',
      '[x](JaVaScRiPt:alert(1))',
      '[x](java\tscript:alert(1))',
      '<a href="&#106;avascript:alert(1)">x</a>',
      '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
      '<iframe src="https://evil.example"></iframe>',
      '<div onclick="alert(1)">x</div>',
      '<p style="background:url(javascript:alert(1))">x</p>',
      '<svg><script>alert(1)</script></svg>',
      '<object data="x"></object><embed src="x"><form action="x"><input></form>',
      '<a href="//evil.example">x</a>',
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    ];
    for (const attack of attacks) {
      const html = renderMarkdown(attack).toLowerCase();
      expect(html, attack).not.toMatch(/<script|<iframe|<img|<svg|<object|<embed|<form|<input|<style|<math/);
      expect(html, attack).not.toMatch(/\son[a-z]+\s*=/);
      expect(html, attack).not.toMatch(/javascript:|data:|href="\/\//);
      expect(html, attack).not.toMatch(/style=/);
    }
  });
});
