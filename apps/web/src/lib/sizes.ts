import { formatSize } from '@portal/contracts';
import { currentLanguage } from './i18n';

/** A size for the reader (§5's units), its number written the way their language writes it. */
export const sizeText = (bytes: number, decimals?: number): string => formatSize(bytes, decimals, currentLanguage());
