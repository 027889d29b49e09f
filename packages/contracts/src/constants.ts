/** Business constants of the specification (§9). One place for both the server and the web app. */
export const API_BASE = '/api/v2';
export const REQUEST_TIMEOUT_MS = 60_000;
export const ERROR_TOAST_THROTTLE_MS = 1_000;
export const LAZY_SCREEN_RELOAD_DELAY_MS = 3_000;
export const NO_ACCESS_TOAST_MS = 1_500;
export const NOTIFICATION_POPUP_MS = 3_000;
export const IDENTITY_VERIFICATION_GRACE_MS = 15 * 60 * 1000;
export const CONTACT_VERIFICATION_VALIDITY_DAYS = 7;
export const CASE_NAME_MAX = 128;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 20;
export const DEFAULT_LANGUAGE = 'en';
export const DEFAULT_LIST_DATE_RANGE_DAYS = 30;
export const DEFAULT_EXPORT_TYPES = ['stl', 'ply', 'pdf'] as const;
export const MODEL_FRAME_INTERVAL_MS = 1000 / 15;
export const SMOOTH_SCROLL = { durationMs: 500, stepMs: 20 } as const;
export const RESIZE_OBSERVER_DEBOUNCE_MS = 100;
export const GENERATED_ID_HEX_LENGTH = 8;
export const FILE_SIZE_BASE = 1024;
export const SIDEBAR_WIDTH_REM = 2.6;
export const DRAWER_SIZE_REM = 7.8;
export const DIALOG_TOP_OFFSET = '20vh';
export const PERMISSION_WILDCARD = '*:*:*';
export const BREAKPOINTS = { tablet: 1280, smallTablet: 980, phone: 750 } as const;

/** Login protection: after this many failures the captcha is required. */
export const LOGIN_CAPTCHA_AFTER_FAILURES = 3;
/** After this many failures the account is locked for LOGIN_LOCK_MINUTES (code 1075). */
export const LOGIN_LOCK_AFTER_FAILURES = 10;
export const LOGIN_LOCK_MINUTES = 15;
/** One-time email links. */
export const EMAIL_CONFIRM_VALIDITY_HOURS = 48;
export const PASSWORD_RESET_VALIDITY_MINUTES = 60;
export const FREE_LOGIN_SIGN_VALIDITY_MINUTES = 2;

/** Field lengths shared by forms and the server. */
export const FIELD_MAX = {
  account: 50,
  email: 254,
  phone: 32,
  name: 100,
  organizationName: 128,
  abbreviation: 32,
  reason: 500,
  address: 200,
  code: 64,
  token: 200,
} as const;
