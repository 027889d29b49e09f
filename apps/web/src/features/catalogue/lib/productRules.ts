import type { PrescriptionField, RequiredFieldRule } from '@portal/contracts';
import type { LabProduct } from '../api/types';

/**
 * The laboratory's rules per work type with the chosen product's required fields merged into its work type's rule
 * (one rule per work type, as the send dialog lists them).
 */
export function withProductRules(
  rules: readonly RequiredFieldRule[],
  product: Pick<LabProduct, 'workType' | 'requiredFields'> | null,
): RequiredFieldRule[] {
  if (!product?.requiredFields.length) return [...rules];
  const own = rules.find((r) => r.workType === product.workType);
  const fields = [...new Set<PrescriptionField>([...(own?.fields ?? []), ...product.requiredFields])];
  return own
    ? rules.map((r) => (r === own ? { ...r, fields } : r))
    : [...rules, { workType: product.workType, fields }];
}

/** The order's work types with the product's added; a product clears tooth materials it does not offer. */
export function applyProduct<T extends { material?: string }>(
  product: LabProduct | null,
  workTypes: readonly string[],
  teeth: readonly T[],
): { workTypes: string[]; teeth: T[] } {
  if (!product) return { workTypes: [...workTypes], teeth: [...teeth] };
  const offered = product.materials;
  return {
    workTypes: workTypes.includes(product.workType) ? [...workTypes] : [...workTypes, product.workType],
    teeth: teeth.map((tooth) =>
      tooth.material && offered.length && !offered.includes(tooth.material) ? { ...tooth, material: undefined } : tooth,
    ),
  };
}
