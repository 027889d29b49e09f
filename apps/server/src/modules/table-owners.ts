/**
 * Which module owns each table: the only module whose repositories may write it (INSERT INTO, UPDATE, DELETE FROM).
 * Another module that needs a row changed calls the owner's service, inside its own transaction where it has one
 * (`CasesService.followOrder(tx, …)`). Reads across modules stay allowed (joins for lists). `platform` tables are
 * written by `src/platform` alone (`Jobs.enqueue`, `BlobDeletions.list`, `Mailer`, `RateLimits`, `Housekeeping`).
 *
 * Every table a migration creates is named here; `table-owners.test.ts` reads every `*.repository.ts` under
 * modules/ and fails, naming the file and the table, when a module writes a table it does not own.
 */
export const TABLE_OWNERS = {
  // 0001_platform
  organizations: 'organizations',
  roles: 'roles',
  role_menus: 'roles',
  users: 'users',
  menus: 'menus',
  sessions: 'auth',
  refresh_tokens: 'auth',
  login_failures: 'auth',
  captchas: 'auth',
  agreements: 'agreements',
  agreement_read_logs: 'agreements',
  /** Mailed links (confirm, reset, set password, change e-mail) and the free-login signs: one-time tokens of a user. */
  email_tokens: 'users',
  mail_outbox: 'platform',
  // 0003_cases
  dentists: 'dentists',
  devices: 'devices',
  device_tokens: 'devices',
  cases: 'cases',
  files: 'files',
  uploads: 'files',
  storage_accounts: 'files',
  exports: 'exports',
  jobs: 'platform',
  // 0006_partners
  partnerships: 'partners',
  partnership_events: 'partners',
  partner_invitations: 'partners',
  // 0007_orders
  orders: 'orders',
  order_events: 'orders',
  // 0010_order_collaboration
  /** A laboratory's prescription rules, applied by `OrdersService.create`. */
  lab_required_fields: 'orders',
  device_designated_labs: 'devices',
  oem_certified_labs: 'devices',
  order_messages: 'messages',
  order_attachments: 'orders',
  /** Written by `OrderNotifier` (orders); the message centre reads them and marks them read through it. */
  notifications: 'orders',
  // 0012_credentials_and_housekeeping
  rate_limit_hits: 'platform',
  job_runs: 'platform',
  // 0013_finished_uploads
  finished_uploads: 'files',
  // 0017_blob_deletions
  blob_deletions: 'platform',
  // 0020_share_links
  shares: 'shares',
  /** Merged into access_log and dropped by 0047_access_log. */
  share_access_log: 'shares',
  // 0021_reports
  reports: 'reports',
  report_versions: 'reports',
  report_snapshots: 'reports',
  // 0022_lab_catalogue
  lab_products: 'catalogue',
  lab_calendars: 'catalogue',
  lab_closed_dates: 'catalogue',
  // 0023_remakes_and_scorecards
  lab_scorecard_days: 'scorecards',
  lab_scorecards: 'scorecards',
  // 0024_own_space_account
  user_avatars: 'users',
  authorized_apps: 'users',
  company_contacts: 'contacts',
  /** The order mails due to a company's contacts: `OrderNotifier`'s queue, as `notifications` are for users. */
  contact_order_notices: 'orders',
  // 0025_organization_areas
  areas: 'company',
  // 0026_update_log_and_usage
  update_log_entries: 'software',
  update_log_texts: 'software',
  update_log_reads: 'software',
  usage_weekly: 'software',
  // 0027_annotations_and_margin_lines
  annotations: 'annotations',
  margin_lines: 'annotations',
  // 0030_permissions_and_sign_in_identifiers
  sign_in_identifiers: 'users',
  sign_in_disputes: 'users',
  // 0035_events
  events: 'events',
  // 0036_chat
  chat_conversations: 'chat',
  chat_messages: 'chat',
  chat_attachments: 'chat',
  chat_reads: 'chat',
  // 0038_chat_notices
  /** Who has a live socket open, as each process's heartbeat marks it (online: no chat notices). */
  live_presence: 'live',
  // 0039_webhooks
  webhook_endpoints: 'webhooks',
  webhook_deliveries: 'webhooks',
  webhook_attempts: 'webhooks',
  // 0041_oauth
  oauth_apps: 'apps',
  /** The OpenID provider's grants, sessions, interactions, codes and tokens (its adapter). */
  oauth_models: 'apps',
  oauth_keys: 'apps',
  // 0046_app_calls
  /** Apps' calls counted per minute: the organization's log, and what the per-app and per-user limits count. */
  app_call_minutes: 'apps',
  // 0047_access_log
  /** The patient-data access log: appended to by AccessLog (services call it), read by the administrators. */
  access_log: 'audit',
  // 0048_idempotency_keys
  /** The answers of keyed writes, replayed to a retry (`platform/idempotency.ts`). */
  idempotency_keys: 'platform',
  // 0049_erasure
  erasures: 'erasure',
} as const satisfies Record<string, string>;

export type Table = keyof typeof TABLE_OWNERS;
