import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import type { LabProduct } from '../api/types';

dayjs.extend(localizedFormat);

/** A product's price as the reader writes money ("89,50 €", "$89.50"); empty without a price. */
export function formatPrice(product: Pick<LabProduct, 'price' | 'currency'>, language: string): string {
  if (product.price === null || !product.currency) return '';
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency: product.currency }).format(product.price);
  } catch {
    return `${product.price.toFixed(2)} ${product.currency}`;
  }
}

/** ISO weekday names in the reader's language (1 Monday … 7 Sunday); 2024-01-01 was a Monday. */
export function weekdayName(isoWeekday: number, language: string, width: 'long' | 'short' = 'long'): string {
  return new Intl.DateTimeFormat(language, { weekday: width, timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, 0, isoWeekday)),
  );
}

/** The IANA timezones the browser knows, the given ones first when it lacks them. */
export function timeZones(...wanted: string[]): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([...wanted.filter(Boolean), 'UTC', ...known])];
}

/** The browser's timezone: a laboratory's first calendar is in the timezone it is set up from. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** A calendar day with its weekday, as the reader writes it ("Thursday, December 3, 2026"). */
export const formatLongDate = (date: string): string => dayjs(date).format('dddd, LL');
