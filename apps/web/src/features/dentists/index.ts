// What other features may use of dentists. Everything else in this folder is the feature's own.
export { listDentistsQuery } from './api/listDentists';
