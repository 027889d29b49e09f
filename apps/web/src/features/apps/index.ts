/** What other features use of the apps feature: a scope's name in words (own space lists authorized apps). */
export { scopeLabel } from './lib/scopes';
