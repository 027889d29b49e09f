/**
 * The error catalogue (§8): one table for the server, the web client and the docs.
 * `code` is the contract in the body; `status` is the HTTP status of its class;
 * `key` names the message in the `errors` locale namespace.
 */
export const ERRORS = {
  SUCCESS: { code: 200, status: 200, key: 'success' },
  PARAM_INVALID: { code: 400, status: 400, key: 'paramInvalid' },
  TOKEN_INVALID: { code: 401, status: 401, key: 'tokenInvalid' },
  SESSION_ENDED: { code: 402, status: 401, key: 'sessionEnded' },
  ACCESS_DENIED: { code: 403, status: 403, key: 'accessDenied' },
  NOT_FOUND: { code: 404, status: 404, key: 'notFound' },
  PARTNER_NAME_UNAVAILABLE: { code: 410, status: 404, key: 'partnerNameUnavailable' },
  AUTH_ACCOUNT_MISSING: { code: 411, status: 404, key: 'authAccountMissing' },
  PAYLOAD_TOO_LARGE: { code: 413, status: 413, key: 'payloadTooLarge' },
  UNSUPPORTED_MEDIA_TYPE: { code: 415, status: 415, key: 'unsupportedMediaType' },
  TOO_MANY_REQUESTS: { code: 429, status: 429, key: 'tooManyRequests' },
  INTERNAL: { code: 500, status: 500, key: 'somethingWentWrong' },
  SERVICE_UNAVAILABLE: { code: 503, status: 503, key: 'serviceUnavailable' },
  NO_PERMISSION: { code: 1002, status: 403, key: 'noPermission' },
  ACCOUNT_NOT_FOUND: { code: 1003, status: 400, key: 'accountNotFound' },
  INVALID_PASSWORD: { code: 1004, status: 400, key: 'invalidPassword' },
  USER_DISABLED: { code: 1005, status: 403, key: 'userDisabled' },
  ORGANIZATION_DISABLED: { code: 1006, status: 403, key: 'organizationDisabled' },
  ACCOUNT_TAKEN: { code: 1007, status: 409, key: 'accountTaken' },
  EMAIL_TAKEN: { code: 1008, status: 409, key: 'emailTaken' },
  PHONE_TAKEN: { code: 1009, status: 409, key: 'phoneTaken' },
  CAPTCHA_REQUIRED: { code: 1010, status: 400, key: 'captchaRequired' },
  PASSWORD_RULE: { code: 1011, status: 400, key: 'passwordRule' },
  PASSWORDS_DONT_MATCH: { code: 1012, status: 400, key: 'passwordsDontMatch' },
  REFRESH_TOKEN_INVALID: { code: 1013, status: 401, key: 'refreshTokenInvalid' },
  REAUTH_REQUIRED: { code: 1014, status: 403, key: 'reauthRequired' },
  AGREEMENTS_REQUIRED: { code: 1015, status: 400, key: 'agreementsRequired' },
  LAB_PENDING_REVIEW: { code: 1016, status: 403, key: 'labPendingReview' },
  LAB_REJECTED: { code: 1017, status: 403, key: 'labRejected' },
  ALREADY_ACTIVATED: { code: 1018, status: 409, key: 'alreadyActivated' },
  EMAIL_NOT_VERIFIED: { code: 1019, status: 403, key: 'emailNotVerified' },
  ALREADY_REVIEWED: { code: 1020, status: 409, key: 'alreadyReviewed' },
  SAME_PASSWORD: { code: 1021, status: 400, key: 'samePassword' },
  SIGN_IN_AMBIGUOUS: { code: 1022, status: 409, key: 'signInAmbiguous' },
  RESET_NEEDS_VERIFICATION: { code: 1074, status: 403, key: 'resetNeedsVerification' },
  TOO_MANY_LOGIN_FAILURES: { code: 1075, status: 429, key: 'tooManyLoginFailures' },
  RESOURCE_PREPARING: { code: 2007, status: 409, key: 'resourcePreparing' },
  REPORT_LINK_EXPIRED: { code: 2009, status: 410, key: 'reportLinkExpired' },
  REPORT_NOT_PUBLISHED: { code: 2010, status: 409, key: 'reportNotPublished' },
  LINK_EXPIRED: { code: 2020, status: 410, key: 'linkExpired' },
  INVALID_LINK: { code: 2021, status: 404, key: 'invalidLink' },
  INSUFFICIENT_STORAGE: { code: 2022, status: 507, key: 'insufficientStorage' },
  NAME_IN_USE: { code: 2023, status: 409, key: 'nameInUse' },
  FILE_FORMAT_NOT_ACCEPTED: { code: 2024, status: 415, key: 'fileFormatNotAccepted' },
  FILE_TOO_LARGE: { code: 2025, status: 413, key: 'fileTooLarge' },
  FILE_CONTENT_MISMATCH: { code: 2026, status: 415, key: 'fileContentMismatch' },
  TOO_MANY_FILES: { code: 2027, status: 409, key: 'tooManyFiles' },
  UPLOAD_FAILED: { code: 2028, status: 400, key: 'unableToUpload' },
  DEVICE_ACTIVATION_FAILED: { code: 2029, status: 400, key: 'deviceActivationFailed' },
  DEVICE_STATUS_CONFLICT: { code: 2030, status: 409, key: 'deviceStatusConflict' },
  PARTNER_NO_ACCESS: { code: 2031, status: 403, key: 'partnerNoAccess' },
  PARTNER_TRANSITION: { code: 2032, status: 409, key: 'partnerTransition' },
  PARTNER_INVALID_TARGET: { code: 2033, status: 400, key: 'partnerInvalidTarget' },
  INVITATION_EXPIRED: { code: 2034, status: 410, key: 'invitationExpired' },
  ORDER_TRANSITION: { code: 2035, status: 409, key: 'orderTransition' },
  PARTNER_NOT_ACCEPTED: { code: 2036, status: 409, key: 'partnerNotAccepted' },
  ORDER_FIELDS_REQUIRED: { code: 2037, status: 400, key: 'orderFieldsRequired' },
  DEVICE_LIMIT_DESIGNATED: { code: 2038, status: 403, key: 'deviceLimitDesignated' },
  DEVICE_LIMIT_CERTIFIED: { code: 2039, status: 403, key: 'deviceLimitCertified' },
  MESSAGE_EMPTY: { code: 2040, status: 400, key: 'messageEmpty' },
  NOT_A_LAB: { code: 2041, status: 400, key: 'notALab' },
  CASE_HAS_OPEN_ORDER: { code: 2042, status: 409, key: 'caseHasOpenOrder' },
  // 460 is the tus checksum extension's status for a chunk whose Upload-Checksum does not match its bytes.
  UPLOAD_CHECKSUM_MISMATCH: { code: 2043, status: 460, key: 'uploadChecksumMismatch' },
  CANNOT_CHANGE_SELF: { code: 2044, status: 409, key: 'cannotChangeSelf' },
  LAST_ADMINISTRATOR: { code: 2045, status: 409, key: 'lastAdministrator' },
  ROLE_IN_USE: { code: 2046, status: 409, key: 'roleInUse' },
  ROLE_READ_ONLY: { code: 2047, status: 403, key: 'roleReadOnly' },
  PRODUCT_NAME_TAKEN: { code: 2060, status: 409, key: 'productNameTaken' },
  ORGANIZATION_HAS_OPEN_ORDERS: { code: 2080, status: 409, key: 'organizationHasOpenOrders' },
  CONFIRMATION_MISMATCH: { code: 2081, status: 400, key: 'confirmationMismatch' },
  ORGANIZATION_CLOSED: { code: 2082, status: 403, key: 'organizationClosed' },
  RETENTION_OVER: { code: 2083, status: 410, key: 'retentionOver' },
  TOO_MANY_ANNOTATIONS: { code: 2084, status: 409, key: 'tooManyAnnotations' },
  ORDER_THREAD_READ_ONLY: { code: 2088, status: 409, key: 'orderThreadReadOnly' },
  ORDER_SCANS_UNAVAILABLE: { code: 2089, status: 403, key: 'orderScansUnavailable' },
  CHAT_READ_ONLY: { code: 2090, status: 409, key: 'chatReadOnly' },
  WEBHOOK_URL_REFUSED: { code: 2091, status: 400, key: 'webhookUrlRefused' },
  WEBHOOK_LIMIT: { code: 2092, status: 409, key: 'webhookLimit' },
  APP_ID_REQUIRED: { code: 2093, status: 400, key: 'appIdRequired' },
  APP_USER_MISMATCH: { code: 2094, status: 403, key: 'appUserMismatch' },
  APP_INTERACTION_EXPIRED: { code: 2095, status: 410, key: 'appInteractionExpired' },
  APP_AUTHORIZATION_FAILED: { code: 2096, status: 403, key: 'appAuthorizationFailed' },
  APP_STATUS_CONFLICT: { code: 2097, status: 409, key: 'appStatusConflict' },
  IDEMPOTENCY_KEY_REUSED: { code: 2098, status: 422, key: 'idempotencyKeyReused' },
  IDEMPOTENCY_PENDING: { code: 2099, status: 409, key: 'idempotencyPending' },
  LEGAL_HOLD: { code: 2100, status: 409, key: 'legalHold' },
  ORDER_REMAKE_NOT_ALLOWED: { code: 2058, status: 409, key: 'orderRemakeNotAllowed' },
  ORDER_REMAKE_EXISTS: { code: 2059, status: 409, key: 'orderRemakeExists' },
  ACCOUNT_ALREADY_RENAMED: { code: 2070, status: 409, key: 'accountAlreadyRenamed' },
  CONTACT_EXISTS: { code: 2071, status: 409, key: 'contactExists' },
  CONTACT_ALREADY_VERIFIED: { code: 2072, status: 409, key: 'contactAlreadyVerified' },
  IMPROVEMENT_PLAN_NOT_JOINED: { code: 2260, status: 403, key: 'improvementPlanNotJoined' },
  VERIFICATION_CODE_WRONG: { code: 3002, status: 400, key: 'verificationCodeWrong' },
  REGION_MISMATCH: { code: 10503, status: 503, key: 'regionMismatch' },
} as const;

export type ErrorName = keyof typeof ERRORS;
export type ErrorEntry = (typeof ERRORS)[ErrorName];

const BY_CODE = new Map<number, ErrorEntry & { name: ErrorName }>(
  (Object.keys(ERRORS) as ErrorName[]).map((name) => [ERRORS[name].code, { ...ERRORS[name], name }]),
);
export function errorByCode(code: number) {
  return BY_CODE.get(code);
}

/** Codes the generic error display ignores (§8): their screens handle them. */
export const IGNORED_ERROR_CODES: readonly number[] = [1019, 1002, 2007, 2020, 410, 411, 3002, 10503, 1074, 2009, 1075];

/** Codes on which the client shows the message and signs out (§8). */
export const LOGOUT_ERROR_CODES: readonly number[] = [402, 1006, 503];

/** The response envelope of every call. */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}
