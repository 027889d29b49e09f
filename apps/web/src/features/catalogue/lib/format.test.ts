import { describe, expect, it } from 'vitest';
import { formatPrice, timeZones, weekdayName } from './format';

describe('catalogue formatting', () => {
  it('writes prices in the currency and language', () => {
    expect(formatPrice({ price: 89.5, currency: 'EUR' }, 'en')).toBe('€89.50');
    expect(formatPrice({ price: 89.5, currency: 'EUR' }, 'de')).toMatch(/^89,50\s€$/);
    expect(formatPrice({ price: null, currency: null }, 'en')).toBe('');
  });
  it('names ISO weekdays, Monday first', () => {
    expect(weekdayName(1, 'en')).toBe('Monday');
    expect(weekdayName(7, 'en')).toBe('Sunday');
    expect(weekdayName(1, 'de')).toBe('Montag');
  });
  it('lists the wanted timezone first, UTC always', () => {
    const zones = timeZones('Europe/Copenhagen');
    expect(zones[0]).toBe('Europe/Copenhagen');
    expect(zones).toContain('UTC');
    expect(new Set(zones).size).toBe(zones.length);
  });
});
