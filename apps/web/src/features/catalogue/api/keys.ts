/** Query keys of the catalogue feature: a laboratory's change invalidates `all`. */
export const catalogueKeys = {
  all: ['catalogue'] as const,
  products: (partnerCode?: string) => ['catalogue', 'products', partnerCode ?? ''] as const,
  calendar: ['catalogue', 'calendar'] as const,
  estimate: (partnerCode: string, productCode: string) => ['catalogue', 'estimate', partnerCode, productCode] as const,
};
