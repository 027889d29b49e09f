import { describe, expect, it } from 'vitest';
import { applyProduct, withProductRules } from './productRules';
import type { LabProduct } from '../api/types';

const PRODUCT: LabProduct = {
  productCode: 'p1',
  name: 'Zirconia crown',
  workType: 'Crown',
  materials: ['Zirconia'],
  turnaroundDays: 3,
  price: null,
  currency: null,
  requiredFields: ['shade', 'material'],
};

describe('a chosen product in the send dialog', () => {
  it("merges its required fields into its work type's rule, once per work type", () => {
    expect(withProductRules([{ workType: 'Crown', fields: ['shade', 'method'] }], PRODUCT)).toEqual([
      { workType: 'Crown', fields: ['shade', 'method', 'material'] },
    ]);
    expect(withProductRules([{ workType: 'Inlay', fields: ['shade'] }], PRODUCT)).toEqual([
      { workType: 'Inlay', fields: ['shade'] },
      { workType: 'Crown', fields: ['shade', 'material'] },
    ]);
    expect(withProductRules([{ workType: 'Inlay', fields: ['shade'] }], null)).toEqual([
      { workType: 'Inlay', fields: ['shade'] },
    ]);
  });
  it('adds its work type and clears materials it does not offer', () => {
    const teeth = [{ number: 16, material: 'Zirconia' }, { number: 17, material: 'Gold' }, { number: 18 }];
    expect(applyProduct(PRODUCT, ['Inlay'], teeth)).toEqual({
      workTypes: ['Inlay', 'Crown'],
      teeth: [{ number: 16, material: 'Zirconia' }, { number: 17, material: undefined }, { number: 18 }],
    });
    expect(applyProduct({ ...PRODUCT, materials: [] }, ['Crown'], teeth).teeth).toEqual(teeth);
  });
});
