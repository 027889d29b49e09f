export const REPORT_DESIGN_PATH = '/report-design';
export const REPORT_PREVIEW_PATH = '/report-preview-main';
export const reportDesignPath = (reportCode: string) =>
  `${REPORT_DESIGN_PATH}?report=${encodeURIComponent(reportCode)}`;
export const reportPreviewPath = (reportCode: string, version?: number) =>
  `${REPORT_PREVIEW_PATH}?report=${encodeURIComponent(reportCode)}${version ? `&version=${version}` : ''}`;
