import { formatSize } from '@portal/contracts';
import { currentLanguage } from './i18n';

/**
 * A size for the reader (§5's units), its number written the way their language writes it. Screens show one decimal
 * ("3.9 MB"): a person compares sizes at a glance, and three decimals of a megabyte suggest a precision nobody reads.
 * The spec's three decimals stay the formatter's default (contracts' formatSize).
 */
export const sizeText = (bytes: number, decimals = 1): string => formatSize(bytes, decimals, currentLanguage());
