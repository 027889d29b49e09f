// What other features may use of scorecards. Everything else in this folder is the feature's own.
export { LabScorecard } from './components/LabScorecard';
export { LabScorecardLine } from './components/LabScorecardLine';
export { OwnScorecard } from './components/OwnScorecard';
export { scorecardKeys } from './api/keys';
