// What other features may use of the catalogue. Everything else in this folder is the feature's own.
export { LabProductPicker } from './components/LabProductPicker';
export { DeliveryEstimate } from './components/DeliveryEstimate';
export { LateTag } from './components/LateTag';
export type { LabProduct } from './api/types';
export { applyProduct, withProductRules } from './lib/productRules';
