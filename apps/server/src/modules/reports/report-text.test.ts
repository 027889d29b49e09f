import { describe, expect, it } from 'vitest';
import { plainText } from './report-text.js';

describe('plainText', () => {
  it('drops scripts with their content and other tags without theirs', () => {
    expect(plainText('Brush <script>alert(1)</script>twice <b>daily</b>')).toBe('Brush twice daily');
    expect(plainText('<img src=x onerror="alert(1)">Floss')).toBe('Floss');
    expect(plainText('<SCRIPT src="//x"></SCRIPT>ok')).toBe('ok');
    expect(plainText('<style>p{}</style><a href="javascript:alert(1)">link</a>')).toBe('link');
    expect(plainText('unclosed <script>alert(1)')).toBe('unclosed');
  });
  it('keeps comparisons and text in every script as written', () => {
    expect(plainText('pocket depth < 3 mm and > 1 mm')).toBe('pocket depth < 3 mm and > 1 mm');
    expect(plainText('毎日歯を磨いてください。')).toBe('毎日歯を磨いてください。');
    expect(plainText('Καθαρίζετε τα δόντια σας')).toBe('Καθαρίζετε τα δόντια σας');
  });
});
