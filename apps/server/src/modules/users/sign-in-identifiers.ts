import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/**
 * Account names, emails and phone numbers are one namespace for sign-in (§1: a user signs in with any of them), so
 * each is kept as a normalized key in `sign_in_identifiers`, unique across all three kinds. The keys are what two
 * spellings of the same identifier have in common: Unicode compatibility forms and case folded for names and
 * emails, E.164 for phone numbers.
 */
export type IdentifierKind = 'account' | 'email' | 'phone';

/** Compatibility forms composed, then case folded (upper then lower also folds 'ß' with 'ss' and 'ǅ' with 'dž'). */
function folded(text: string): string {
  return text.trim().normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
}

export function accountKey(account: string): string {
  return folded(account);
}

export function emailKey(email: string): string {
  return folded(email);
}

const PHONE_SEPARATORS = /[\s().\-\u2010-\u2015]/g;

/**
 * Whether an account name reads as a phone number: only digits and separators, five digits or more (the shortest
 * phone the forms accept). Such a name would be matched at sign-in against someone's phone number.
 */
export function looksLikePhone(text: string): boolean {
  const bare = text.normalize('NFKC').replace(PHONE_SEPARATORS, '');
  return /^\+?\d{5,}$/.test(bare);
}

/** Sites whose country is known when an organization has not picked its country from the areas. */
const SITE_COUNTRY: Record<string, string> = { us: 'US', uk: 'GB' };

/**
 * The country an organization's phone numbers are read in when they carry no country code: the country it picked,
 * a country code typed as its country, or its site's country (none for the European site: several countries).
 */
export function phoneRegion(
  place: { country_area_id: string | null; country: string | null; region: string } | undefined,
) {
  if (!place) return null;
  const picked = place.country_area_id ?? place.country?.trim().toUpperCase() ?? '';
  if (/^[A-Z]{2}$/.test(picked)) return picked;
  return SITE_COUNTRY[place.region] ?? null;
}

/**
 * A phone number in E.164 ('+46701234567'), read in `region` when it has no country code; null when it is not a
 * possible number there (too short or too long for its country) or has no country to be read in.
 */
export function phoneKey(phone: string, region?: string | null): string | null {
  const text = phone.normalize('NFKC').trim();
  const country = region && /^[A-Z]{2}$/.test(region) ? (region as CountryCode) : undefined;
  if (!text.startsWith('+') && !country) return null;
  const parsed = parsePhoneNumberFromString(text, country);
  return parsed?.isPossible() ? parsed.number : null;
}

/**
 * The keys a sign-in identifier may stand for: the account name's, the email's when it holds '@', and the phone
 * number's in each of `regions` (the countries organizations are in) when it reads as a phone. A phone typed
 * without its country code thus finds its user as long as one country's reading matches; two users found by
 * different readings make the identifier ambiguous, and sign-in asks for the account name instead.
 */
export function signInKeys(identifier: string, regions: readonly string[]): string[] {
  const keys = new Set<string>([accountKey(identifier)]);
  if (identifier.includes('@')) keys.add(emailKey(identifier));
  if (looksLikePhone(identifier)) {
    const international = phoneKey(identifier);
    if (international) keys.add(international);
    else {
      for (const region of regions) {
        const key = phoneKey(identifier, region);
        if (key) keys.add(key);
      }
    }
  }
  return [...keys];
}
