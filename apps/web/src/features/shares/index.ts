// What other features may use of shares. Everything else in this folder is the feature's own.
export { SharesCard } from './components/SharesCard';
