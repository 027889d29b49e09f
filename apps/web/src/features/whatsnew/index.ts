/** What other parts of the app use of the update log and the improvement programme. */
export { WhatsNewButton } from './components/WhatsNewButton';
export { ImprovementPlanCard } from './components/ImprovementPlanCard';
export { UsageTracker } from './lib/usageTracking';
