import { describe, expect, it } from 'vitest';
import { t } from './i18n.js';

describe('server texts', () => {
  it('answer in the language asked, falling back to English, the same each time they are asked', () => {
    expect(t('de', 'success')).toBe('Erfolgreich');
    expect(t('de', 'success')).toBe('Erfolgreich');
    expect(t('xx', 'success')).toBe(t('en', 'success'));
    expect(t(undefined, 'success')).toBe(t('en', 'success'));
  });

  it('fill their placeholders on every call, whatever an earlier call gave', () => {
    expect(t('de', 'paramTooLong', { n: 5 })).toBe('Die Länge darf 5 Zeichen nicht überschreiten.');
    expect(t('de', 'paramTooLong', { n: 12 })).toBe('Die Länge darf 12 Zeichen nicht überschreiten.');
    expect(t('de', 'paramTooLong')).toBe('Die Länge darf  Zeichen nicht überschreiten.');
  });

  it('give a key no catalogue holds back as it is (a work type typed by a clinic, say)', () => {
    expect(t('de', 'treatment.Something new')).toBe('treatment.Something new');
    expect(t('de', 'mail:none.subject')).toBe('none.subject');
  });
});
