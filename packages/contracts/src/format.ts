import { FILE_SIZE_BASE } from './constants.js';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * Sizes from B to YB, base 1024, 3 decimals by default (§5). With a language, the number is written the way it
 * writes decimals (3,925 MB in German, where 3.925 would read as three thousand).
 */
export function formatSize(bytes: number, decimals = 3, language?: string): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  const exp = Math.min(Math.floor(Math.log(bytes) / Math.log(FILE_SIZE_BASE)), UNITS.length - 1);
  const value = bytes / FILE_SIZE_BASE ** exp;
  const shown = exp === 0 ? value : Number(value.toFixed(decimals));
  if (!language) return `${shown} ${UNITS[exp]}`;
  const key = `${language}:${decimals}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, { maximumFractionDigits: decimals, useGrouping: false });
    numberFormats.set(key, format);
  }
  return `${format.format(shown)} ${UNITS[exp]}`;
}
