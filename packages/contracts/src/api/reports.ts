import { z } from 'zod';
import { FIELD_MAX } from '../constants.js';
import { LANGUAGES, TOOTH_NUMBERING_SYSTEMS } from '../enums.js';
import { zDate, zIntIn, zRequiredText, zText } from './fields.js';

/** The diagnosis categories of a finding (spec §3). `aethetics` keeps its spelling in data; it is shown as "Aesthetics". */
export const DIAGNOSIS_CATEGORIES = [
  'preventive',
  'functional_defeat',
  'early_caries',
  'aethetics',
  'advanced_caries',
  'others',
] as const;
export type DiagnosisCategory = (typeof DIAGNOSIS_CATEGORIES)[number];

/** Each category's colour in the light and the dark theme (the PDF and the patient's page use the light one). */
export const DIAGNOSIS_COLORS: Record<DiagnosisCategory, { light: string; dark: string }> = {
  preventive: { light: '#389e0d', dark: '#73d13d' },
  functional_defeat: { light: '#d46b08', dark: '#ffa940' },
  early_caries: { light: '#d4b106', dark: '#ffec3d' },
  aethetics: { light: '#c41d7f', dark: '#f759ab' },
  advanced_caries: { light: '#cf1322', dark: '#ff7875' },
  others: { light: '#595959', dark: '#bfbfbf' },
};

export const RISK_AREAS = ['caries', 'periodontal', 'wear', 'orthodontic'] as const;
export type RiskArea = (typeof RISK_AREAS)[number];
export const RISK_LEVELS = ['low', 'medium', 'high'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];
export const RISK_COLORS: Record<RiskLevel, string> = { low: '#389e0d', medium: '#d48806', high: '#cf1322' };

/** The views a 3D snapshot is taken from. */
export const SNAPSHOT_VIEWS = ['upper', 'lower', 'bite'] as const;
export type SnapshotView = (typeof SNAPSHOT_VIEWS)[number];

export const REPORT_STATUSES = ['draft', 'published'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const REPORT_LIMITS = {
  title: 120,
  note: 1000,
  reason: 1000,
  recommendations: 4000,
  summary: 4000,
  findings: 64,
  /** Case pictures and snapshots shown in one report. */
  images: 12,
  /** Snapshots kept per report (taken, whether shown or not). */
  snapshots: 24,
  snapshotBytes: 8 * 1024 * 1024,
} as const;

/** An adult tooth, FDI in the data whatever the user's numbering system. */
const zTooth = zIntIn(11, 48).refine((n) => n % 10 >= 1 && n % 10 <= 8, { message: 'tooth' });

export const ReportFinding = z.object({
  tooth: zTooth,
  category: z.enum(DIAGNOSIS_CATEGORIES),
  note: zText(REPORT_LIMITS.note).default(''),
});
export type ReportFinding = z.infer<typeof ReportFinding>;

export const RiskItem = z.object({
  level: z.enum(RISK_LEVELS).nullable().default(null),
  reason: zText(REPORT_LIMITS.reason).default(''),
});
export type RiskItem = z.infer<typeof RiskItem>;

/** A picture shown in the report: a case image (`file`) or a 3D snapshot taken for this report (`snapshot`). */
export const ReportImageRef = z.object({
  source: z.enum(['file', 'snapshot']),
  code: zRequiredText(FIELD_MAX.code),
});
export type ReportImageRef = z.infer<typeof ReportImageRef>;

/** What the dentist writes: the draft, and each published version's frozen copy. */
export const ReportContent = z.object({
  title: zText(REPORT_LIMITS.title).default(''),
  language: z.enum(LANGUAGES).default('en'),
  numbering: z.enum(TOOTH_NUMBERING_SYSTEMS).default('fdi'),
  /** Scans of the case the report refers to (their file codes). */
  scans: z.array(zRequiredText(FIELD_MAX.code)).max(REPORT_LIMITS.images).default([]),
  images: z.array(ReportImageRef).max(REPORT_LIMITS.images).default([]),
  findings: z.array(ReportFinding).max(REPORT_LIMITS.findings).default([]),
  risks: z
    .object({
      caries: RiskItem.default({ level: null, reason: '' }),
      periodontal: RiskItem.default({ level: null, reason: '' }),
      wear: RiskItem.default({ level: null, reason: '' }),
      orthodontic: RiskItem.default({ level: null, reason: '' }),
    })
    .default({
      caries: { level: null, reason: '' },
      periodontal: { level: null, reason: '' },
      wear: { level: null, reason: '' },
      orthodontic: { level: null, reason: '' },
    }),
  recommendations: zText(REPORT_LIMITS.recommendations).default(''),
  nextVisit: zDate.nullable().default(null),
  summary: zText(REPORT_LIMITS.summary).default(''),
});
export type ReportContent = z.infer<typeof ReportContent>;

export const ReportCodeBody = z.object({ reportCode: zRequiredText(FIELD_MAX.code) });
export const ReportListBody = z.object({ caseCode: zRequiredText(FIELD_MAX.code) });
export const CreateReportBody = z.object({
  caseCode: zRequiredText(FIELD_MAX.code),
  title: zText(REPORT_LIMITS.title).optional(),
});
export const SaveReportBody = z.object({ reportCode: zRequiredText(FIELD_MAX.code), content: ReportContent });
export const ReportImageBody = z.object({
  reportCode: zRequiredText(FIELD_MAX.code),
  source: z.enum(['file', 'snapshot']),
  code: zRequiredText(FIELD_MAX.code),
});
export const ReportSnapshotBody = z.object({
  reportCode: zRequiredText(FIELD_MAX.code),
  snapshotCode: zRequiredText(FIELD_MAX.code),
});
export const ReportViewBody = z.object({
  reportCode: zRequiredText(FIELD_MAX.code),
  /** A published version; the draft when missing. */
  version: zIntIn(1, 100000).optional(),
});
export const ReportPdfBody = ReportViewBody;

export const ReportSummary = z.object({
  reportCode: z.string(),
  caseCode: z.string(),
  title: z.string(),
  language: z.string(),
  status: z.enum(REPORT_STATUSES),
  /** The latest published version, 0 before the first. */
  version: z.number(),
  /** The draft differs from the latest published version. */
  changedSincePublished: z.boolean(),
  findingCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  publishedAt: z.string().nullable(),
});
export type ReportSummary = z.infer<typeof ReportSummary>;

export const ReportSnapshot = z.object({
  code: z.string(),
  view: z.enum(SNAPSHOT_VIEWS),
  size: z.number(),
  createdAt: z.string(),
});
export type ReportSnapshot = z.infer<typeof ReportSnapshot>;

export const ReportVersionInfo = z.object({
  version: z.number(),
  publishedAt: z.string(),
  publishedBy: z.string(),
});

export const ReportDetail = ReportSummary.extend({
  content: ReportContent,
  snapshots: z.array(ReportSnapshot),
  versions: z.array(ReportVersionInfo),
  patientName: z.string(),
  organizationName: z.string(),
});
export type ReportDetail = z.infer<typeof ReportDetail>;

export const ReportList = z.object({ list: z.array(ReportSummary) });

/** The report as the patient sees it: content, its fixed labels in the report's language, and who wrote it. */
export const ReportView = z.object({
  reportCode: z.string(),
  caseCode: z.string(),
  /** The version shown; 0 for the draft. */
  version: z.number(),
  publishedAt: z.string().nullable(),
  content: ReportContent,
  labels: z.record(z.string(), z.string()),
  patientName: z.string(),
  organizationName: z.string(),
  /** The pictures the report shows, in order, with what each is (a case picture's name, a snapshot's view). */
  images: z.array(ReportImageRef.extend({ caption: z.string() })),
});
export type ReportView = z.infer<typeof ReportView>;

/** The labels of the patient's report (packages/contracts/locales/<lang>/report.json). */
export const REPORT_LABEL_KEYS = [
  'title',
  'patient',
  'clinic',
  'date',
  'version',
  'draft',
  'summary',
  'findings',
  'noFindings',
  'tooth',
  'category',
  'note',
  'risks',
  'riskArea',
  'level',
  'reason',
  'notAssessed',
  'recommendations',
  'nextVisit',
  'images',
  'page',
  ...DIAGNOSIS_CATEGORIES.map((c) => `categories.${c}`),
  ...RISK_AREAS.map((a) => `riskAreas.${a}`),
  ...RISK_LEVELS.map((l) => `levels.${l}`),
  ...SNAPSHOT_VIEWS.map((v) => `views.${v}`),
  ...TOOTH_NUMBERING_SYSTEMS.map((s) => `numbering.${s}`),
] as const;
