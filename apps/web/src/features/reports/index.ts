// What other features may use of reports. Everything else in this folder is the feature's own.
export { CaseReportsCard } from './components/CaseReportsCard';
export { ReportDocument } from './components/ReportDocument';
export { reportDesignPath, reportPreviewPath } from './lib/paths';
