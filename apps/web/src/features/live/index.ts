// What other parts of the app use of the live updates.
export { useLiveUpdates } from './api/useLiveUpdates';
