// What other features may use of cases. Everything else in this folder is the feature's own.
export { downloadGrant } from './api/downloadGrant';
export { useDeleteCases, useEmptyRecycleBin } from './api/useCaseMutations';
export { TreatmentTags } from './components/CaseTags';
export { FileViewerModal, isViewable } from './components/FileViewer';
export { toViewerAnnotations } from './lib/annotations';
export { caseDetailPath } from './lib/paths';
export { CASE_STATUS_COLORS } from './lib/statusColors';
