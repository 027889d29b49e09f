/** Letters that carry no combining mark to strip: "ł" is not "l" + a mark. */
const FOLDED: Record<string, string> = { ł: 'l', ø: 'o', đ: 'd', ß: 'ss', æ: 'ae', œ: 'oe', ı: 'i', þ: 'th', ð: 'd' };

/** Text as a search compares it: lower case, without accents ("Ærø Økonomi" → "aero okonomi"). */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[łøđßæœıþð]/g, (c) => FOLDED[c] ?? c);
}

/** Whether an option's label holds what was typed, ignoring case and accents. */
export function matchesSearch(input: string, label: unknown): boolean {
  if (typeof label !== 'string' && typeof label !== 'number') return false;
  return foldForSearch(String(label)).includes(foldForSearch(input.trim()));
}

/**
 * Spread on an antd Select whose options are many (more than about seven) or grow with the data (roles, partners,
 * products): typing narrows the options by their labels, "zurich" finding "Zürich".
 */
export const searchable = {
  showSearch: {
    filterOption: (input: string, option?: { label?: unknown }) => matchesSearch(input, option?.label),
  },
} as const;
