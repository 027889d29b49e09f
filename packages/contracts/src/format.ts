import { FILE_SIZE_BASE } from './constants.js';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/** Sizes from B to YB, base 1024, 3 decimals by default (§5). */
export function formatSize(bytes: number, decimals = 3): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  const exp = Math.min(Math.floor(Math.log(bytes) / Math.log(FILE_SIZE_BASE)), UNITS.length - 1);
  const value = bytes / FILE_SIZE_BASE ** exp;
  return `${exp === 0 ? value : Number(value.toFixed(decimals))} ${UNITS[exp]}`;
}
