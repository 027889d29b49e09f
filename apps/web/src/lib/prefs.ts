import { DEFAULT_EXPORT_TYPES, DEFAULT_LIST_DATE_RANGE_DAYS } from '@portal/contracts';
import { storage } from './storage';

/** Local preferences (§3): a stored JSON object whose missing keys are filled with defaults. */
export interface Prefs {
  caseDateRangeDays: number;
  orderDateRangeDays: number;
  exportTypes: string[];
}

export function defaultPrefs(): Prefs {
  return {
    caseDateRangeDays: DEFAULT_LIST_DATE_RANGE_DAYS,
    orderDateRangeDays: DEFAULT_LIST_DATE_RANGE_DAYS,
    exportTypes: [...DEFAULT_EXPORT_TYPES],
  };
}

let current: Prefs = defaultPrefs();

export function loadPrefs(): Prefs {
  let stored: Partial<Prefs> = {};
  try {
    const parsed: unknown = JSON.parse(storage.get('prefs') ?? '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) stored = parsed;
  } catch {
    /* corrupt JSON: fall back to defaults */
  }
  current = { ...defaultPrefs(), ...stored };
  return current;
}

export function getPrefs(): Prefs {
  return current;
}

export function savePrefs(patch: Partial<Prefs>): Prefs {
  current = { ...current, ...patch };
  storage.set('prefs', JSON.stringify(current));
  return current;
}

/**
 * The share sign (§3): what a passed share password leaves in this browser, per share code and for one version of
 * the share. The server checks it; a share that changed since asks for its password again.
 */
type ShareSigns = Record<string, { version: number; sign: string }>;
function readShareSigns(): ShareSigns {
  try {
    const parsed: unknown = JSON.parse(storage.get('shareSign') ?? '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as ShareSigns) : {};
  } catch {
    return {};
  }
}
export function shareSign(code: string): string | undefined {
  return readShareSigns()[code]?.sign;
}
export function rememberShareSign(code: string, version: number, sign: string): void {
  storage.set('shareSign', JSON.stringify({ ...readShareSigns(), [code]: { version, sign } }));
}
/** Drops a remembered sign the share no longer takes (it changed, or it ended). */
export function forgetShareSign(code: string): void {
  const { [code]: _dropped, ...rest } = readShareSigns();
  storage.set('shareSign', JSON.stringify(rest));
}
