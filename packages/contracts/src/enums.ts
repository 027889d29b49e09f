/** Enumerations of the specification (§3, §4, §6). Numeric codes are part of the API contract. */

export const LANGUAGES = [
  'en',
  'de',
  'fr',
  'es',
  'it',
  'pt',
  'nl',
  'pl',
  'sv',
  'no',
  'da',
  'hu',
  'ru',
  'zh-CN',
  'zh-TW',
  'ja',
  'el',
  'hr',
  'sk',
  'sl',
  'tr',
] as const;
export type Language = (typeof LANGUAGES)[number];
/** Each language's own name, for the switcher. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  pt: 'Português',
  nl: 'Nederlands',
  pl: 'Polski',
  sv: 'Svenska',
  no: 'Norsk',
  da: 'Dansk',
  hu: 'Magyar',
  ru: 'Русский',
  'zh-CN': '简体中文',
  'zh-TW': '繁體中文',
  ja: '日本語',
  el: 'Ελληνικά',
  hr: 'Hrvatski',
  sk: 'Slovenčina',
  sl: 'Slovenščina',
  tr: 'Türkçe',
};
export function normalizeLanguage(value: string | undefined | null): Language {
  if (!value) return 'en';
  const exact = LANGUAGES.find((l) => l.toLowerCase() === value.toLowerCase());
  if (exact) return exact;
  const base = value.split(/[-_]/)[0]!.toLowerCase();
  if (base === 'zh') return /tw|hk|hant/i.test(value) ? 'zh-TW' : 'zh-CN';
  if (base === 'nb' || base === 'nn') return 'no';
  return LANGUAGES.find((l) => l === base) ?? 'en';
}

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export const REGIONS = ['us', 'eu', 'uk'] as const;
export type Region = (typeof REGIONS)[number];

/** User types (§6). */
export const UserType = { SuperAdmin: 1, Clinic: 2, Lab: 3, Dealer: 4, Oem: 5 } as const;
export type UserType = (typeof UserType)[keyof typeof UserType];

/** Organization types (§6). */
export const OrgType = { NotAssigned: 0, Inner: 1, Clinic: 2, Lab: 3, Dealer: 4, Oem: 5 } as const;
export type OrgType = (typeof OrgType)[keyof typeof OrgType];

/** User statuses (§4). */
export const UserStatus = { Inactivated: 0, Activated: 1, Disabled: 2 } as const;
export type UserStatus = (typeof UserStatus)[keyof typeof UserStatus];

/** Organization statuses: an organization is usable, or disabled by a super administrator. */
export const OrgStatus = { Active: 1, Disabled: 2, Closed: 3 } as const;
export type OrgStatus = (typeof OrgStatus)[keyof typeof OrgStatus];

/** Review of a laboratory registration by a super administrator. Clinics are approved on creation. */
export const ReviewStatus = { Pending: 0, Approved: 1, Rejected: 2 } as const;
export type ReviewStatus = (typeof ReviewStatus)[keyof typeof ReviewStatus];

export const Gender = { Male: 1, Female: 2 } as const;

export const TOOTH_NUMBERING_SYSTEMS = ['fdi', 'universal'] as const;
export type ToothNumberingSystem = (typeof TOOTH_NUMBERING_SYSTEMS)[number];
/** Anything but 'universal' is FDI (§3). */
export function normalizeToothNumbering(value: unknown): ToothNumberingSystem {
  return value === 'universal' ? 'universal' : 'fdi';
}

export const MSG_RECEIVE_TYPES = ['station', 'sms'] as const;

/** Menu item types (§2). */
export const MenuType = { Screen: 1, Button: 2 } as const;

/** Agreement types a user must have read. */
export const AGREEMENT_TYPES = ['privacy', 'cookie', 'terms'] as const;
export type AgreementType = (typeof AGREEMENT_TYPES)[number];

/** Partner statuses (§4); the transitions come with the partnerships work. */
export const PartnerStatus = {
  Temporary: -2,
  Applying: 0,
  Accepted: 1,
  Rejected: 2,
  Canceled: 3,
  Terminated: 4,
} as const;

/**
 * Case statuses (§4), then `ready` and `shipped`: a case follows its order through every status (CASE_STATUS_BY_ORDER),
 * so a case whose work is on its way never says it is only accepted.
 */
export const CASE_STATUSES = [
  'registered',
  'toBeProgressed',
  'scanCompleted',
  'uploaded',
  'ordered',
  'completed',
  'sent',
  'notSent',
  'accepted',
  'rejected',
  'ready',
  'shipped',
] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];
export const ORDER_STATUSES = ['pending', 'accepted', 'ready', 'shipped', 'completed', 'canceled', 'rejected'] as const;
export const SORT_ORDERS = ['desc', 'asc'] as const;

/** Upload targets (§3). */
export const UPLOAD_TARGETS = ['avatar', 'license', 'voice', 'organization'] as const;

/** Treatment work types (§3). */
export const TREATMENTS = [
  'Crown',
  'Inlay',
  'Veneer',
  'Pontic',
  'ClearAligner',
  'DentalBraces',
  'ModelArchiving',
  'SurgicalGuide',
  'SmileDesign',
  'OralCheck',
  'StudyModel',
  'BiteSplint',
  'Retainer',
  'PartialDenture',
  'FullDenture',
  'None',
  'ImplantUpper',
  'ImplantLower',
  'ImplantFullJaw',
] as const;
export type Treatment = (typeof TREATMENTS)[number];

/** File kinds by format (§3). a3d is stored and downloadable but not shown. */
export const MODEL_FORMATS = ['stl', 'ply', 'obj', 'a3d'] as const;
export const IMAGE_FORMATS = ['jpg', 'jpeg', 'png', 'gif', 'svg'] as const;
/** webm carries the voice memos browsers record (MediaRecorder cannot write mp3). */
export const FILE_FORMATS = [...MODEL_FORMATS, ...IMAGE_FORMATS, 'mp4', 'mp3', 'webm', 'pdf'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];
export const FILE_KINDS = ['model', 'image', 'video', 'audio', 'document'] as const;
export type FileKind = (typeof FILE_KINDS)[number];
export function kindOfFormat(format: FileFormat): FileKind {
  if ((MODEL_FORMATS as readonly string[]).includes(format)) return 'model';
  if ((IMAGE_FORMATS as readonly string[]).includes(format)) return 'image';
  return format === 'mp4' ? 'video' : format === 'mp3' || format === 'webm' ? 'audio' : 'document';
}
/** Which jaw a model shows, when known. */
export const JAWS = ['upper', 'lower', 'bite'] as const;

/** Upload tags (§4). */
export const UPLOAD_TAGS = ['uploading', 'uploaded', 'uploadFail', 'finished'] as const;
export type UploadTag = (typeof UPLOAD_TAGS)[number];

/** Preparation of the compact viewer version of a model. */
export const VIEWER_STATUSES = ['none', 'pending', 'ready', 'failed'] as const;

/** The length unit a model was found in (told from its size), or 'unknown' when its size fits none. */
export const MODEL_UNITS = ['mm', 'm', 'in', 'unknown'] as const;

/** Export statuses (§4). */
export const ExportStatus = { Default: 0, Success: 1, Fail: 2, NoFile: 3, NoRequiredFile: 4, Packing: 5 } as const;
