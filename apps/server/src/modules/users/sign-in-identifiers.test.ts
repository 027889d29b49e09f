import { describe, expect, it } from 'vitest';
import { accountKey, emailKey, looksLikePhone, phoneKey, phoneRegion, signInKeys } from './sign-in-identifiers.js';

describe('sign-in identifier keys', () => {
  it('fold names and emails by compatibility form and case', () => {
    expect(accountKey('  Dr.Lena ')).toBe('dr.lena');
    // Full-width letters are the same letters.
    expect(accountKey('ｌｅｎａ')).toBe('lena');
    expect(emailKey('Lena@Example.TEST')).toBe('lena@example.test');
    expect(emailKey('STRASSE@example.test')).toBe(emailKey('straße@example.test'));
  });

  it('read phone numbers as E.164, in the organization country when they carry no country code', () => {
    expect(phoneKey('+46 70 123 4567')).toBe('+46701234567');
    expect(phoneKey('070-123 45 67', 'SE')).toBe('+46701234567');
    expect(phoneKey('(415) 555-0100', 'US')).toBe('+14155550100');
    expect(phoneKey('+1 415 555 0100', 'GB')).toBe('+14155550100');
    // Too short for its country, or no country to read it in.
    expect(phoneKey('+1 555 0100')).toBeNull();
    expect(phoneKey('4155550100')).toBeNull();
    expect(phoneKey('4155550100', 'not a country')).toBeNull();
  });

  it('tell an account name that reads as a phone number', () => {
    for (const name of ['4155550100', '415-555-0100', '0701234567', '12345']) expect(looksLikePhone(name)).toBe(true);
    for (const name of ['lena', 'lena2024', '1234', 'room.101', 'a12345']) expect(looksLikePhone(name)).toBe(false);
  });

  it("take an organization's country from its pick, a code typed as its country, or its site", () => {
    expect(phoneRegion({ country_area_id: 'SE', country: 'Sweden', region: 'eu' })).toBe('SE');
    expect(phoneRegion({ country_area_id: null, country: 'de', region: 'eu' })).toBe('DE');
    expect(phoneRegion({ country_area_id: null, country: 'Germany', region: 'eu' })).toBeNull();
    expect(phoneRegion({ country_area_id: null, country: null, region: 'uk' })).toBe('GB');
    expect(phoneRegion(undefined)).toBeNull();
  });

  it('give every reading of what a person types at sign-in', () => {
    expect(signInKeys('Lena', ['US'])).toEqual(['lena']);
    expect(signInKeys('Lena@Example.test', ['US'])).toEqual(['lena@example.test']);
    expect(signInKeys('+1 415 555 0100', ['SE'])).toEqual(['+1 415 555 0100', '+14155550100']);
    // Without its country code a number is read in every country organizations are in.
    expect(signInKeys('0701234567', ['SE', 'US'])).toEqual(expect.arrayContaining(['0701234567', '+46701234567']));
    expect(signInKeys('4155550100', ['SE', 'US'])).toEqual(expect.arrayContaining(['4155550100', '+14155550100']));
    expect(signInKeys('4155550100', [])).toEqual(['4155550100']);
  });
});
