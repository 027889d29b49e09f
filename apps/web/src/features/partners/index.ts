// What other features may use of partners. Everything else in this folder is the feature's own.
export { listPartners } from './api/listPartners';
export type { PartnerQuery } from './api/types';
