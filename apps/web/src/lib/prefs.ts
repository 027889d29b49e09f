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
