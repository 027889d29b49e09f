import type { ComponentType } from 'react';

export type PageModule = {
  default: ComponentType;
  /** Translation namespaces beyond the start-up ones, loaded with the page's code (see pages.test.ts). */
  namespaces?: readonly string[];
};
export interface PageEntry {
  /** The path the screen has when the menu does not give one; also how a not-granted screen is recognised. */
  path: string;
  load: () => Promise<PageModule>;
  /** Always rendered in the light theme (spec §2). */
  lightTheme?: boolean;
  /** Drawn without antd, so antd's theme is not loaded for it (the login page: the first load has a size budget). */
  plain?: boolean;
}

/**
 * The whitelist: menu `component` key → lazy page. Only these can become routes;
 * a menu item naming any other component is skipped.
 */
export const MENU_PAGES: Record<string, PageEntry> = {
  dashboard: { path: '/dashboard', load: () => import('../features/dashboard/pages/DashboardPage') },
  ownSpace: { path: '/own-space', load: () => import('../features/ownSpace/pages/OwnSpacePage') },
  organizationReview: {
    path: '/account/organizations',
    load: () => import('../features/organizations/pages/OrganizationsPage'),
  },
  outbox: { path: '/account/outbox', load: () => import('../features/mail/pages/OutboxPage') },
  userList: { path: '/account/users', load: () => import('../features/users/pages/UserListPage') },
  roleList: { path: '/account/roles', load: () => import('../features/roles/pages/RoleListPage') },
  caseList: { path: '/case-management', load: () => import('../features/cases/pages/CaseListPage') },
  caseDetail: { path: '/case-management/detail/:id', load: () => import('../features/cases/pages/CaseDetailPage') },
  recycleBin: { path: '/recycle-bin', load: () => import('../features/cases/pages/RecycleBinPage') },
  partnerList: { path: '/partner-management', load: () => import('../features/partners/pages/PartnerListPage') },
  orderList: { path: '/order-management', load: () => import('../features/orders/pages/OrderListPage') },
  orderDetail: { path: '/order-management/detail/:id', load: () => import('../features/orders/pages/OrderDetailPage') },
  chat: { path: '/chat', load: () => import('../features/chat/pages/ChatPage') },
  updateLog: { path: '/account/update-log', load: () => import('../features/whatsnew/pages/UpdateLogAdminPage') },
  appRegister: { path: '/account/apps', load: () => import('../features/apps/pages/AppRegisterPage') },
};

/** Screens that need no token (spec §2). `guestOnly`: a signed-in user is sent to / instead. */
export interface PublicPageEntry extends PageEntry {
  guestOnly?: boolean;
}
const resetPassword = () => import('../features/auth/pages/ResetPasswordPage');
const appAuthorize = () => import('../features/apps/pages/AppAuthorizePage');
export const PUBLIC_PAGES: PublicPageEntry[] = [
  { path: '/login', guestOnly: true, plain: true, load: () => import('../features/auth/pages/LoginPage') },
  // The registration way page, keeping an emailed partner invitation (?invitation=) for after sign-in.
  { path: '/register', load: () => import('../features/partners/pages/RegisterWithInvitationPage') },
  { path: '/region', load: () => import('../features/register/pages/RegionPage') },
  { path: '/self-register', load: () => import('../features/register/pages/SelfRegisterPage') },
  { path: '/register-result', load: () => import('../features/register/pages/RegisterResultPage') },
  { path: '/email-verify/:id', load: () => import('../features/register/pages/EmailVerifyPage') },
  { path: '/forget-pass-account', load: () => import('../features/auth/pages/ForgetPassAccountPage') },
  { path: '/forget-pass-email-send', load: () => import('../features/auth/pages/ForgetPassEmailSendPage') },
  { path: '/forget-pass/:id', load: resetPassword },
  { path: '/set-pass/:id', load: resetPassword },
  { path: '/set-password/:id', load: resetPassword },
  { path: '/mailbox', load: () => import('../features/mail/pages/DemoMailboxPage') },
  { path: '/contact-email-verify/:verifyCode', load: () => import('../features/account/pages/ContactVerifyPage') },
  { path: '/email-change-verify/:id', load: () => import('../features/account/pages/EmailChangeVerifyPage') },
  // The share links' pages (spec §2) are a document of their own: share.html, features/shares/visit.
  { path: '/whatsnew/:id', load: () => import('../features/whatsnew/pages/WhatsNewPage') },
  { path: '/system-check', load: () => import('../features/systemCheck/pages/SystemCheckPage') },
  // An app asks to act for the user (spec §2: public, light theme); v2 is the same page while there is one site.
  { path: '/third/auth-login', lightTheme: true, load: appAuthorize },
  { path: '/third/v2/auth-login', lightTheme: true, load: appAuthorize },
  // The developer of an app registered for them activates it from the mailed one-time link.
  { path: '/activate-app/:sign', lightTheme: true, load: () => import('../features/apps/pages/AppActivatePage') },
  // The portal opens an app for its signed-in user, at the app's registered launch address.
  { path: '/as-auth-redirect/:id', lightTheme: true, load: () => import('../features/apps/pages/AppLaunchPage') },
  // The scanner's desktop software opens the signed-in portal with a one-time sign.
  { path: '/login-jump-page/:id', lightTheme: true, load: () => import('../features/auth/pages/LoginJumpPage') },
  // The report as the patient sees it (spec §2: no token needed, light theme, no progress bar).
  {
    path: '/report-preview-main',
    lightTheme: true,
    load: () => import('../features/reports/pages/ReportPreviewPage'),
  },
];

/** Token screens outside the menu. */
export const TOKEN_PAGES = {
  forceChangePassword: {
    path: '/force-change-password',
    load: () => import('../features/auth/pages/ForceChangePasswordPage'),
  },
  /** The invited laboratory confirms a clinic's invitation (spec §2: token needed, not cached). */
  partnerInvitation: {
    path: '/partner-list-from-email',
    load: () => import('../features/partners/pages/PartnerInvitationPage'),
  },
  /** The clinic designs an oral health report (spec §2: token needed; opened from a case). */
  reportDesign: { path: '/report-design', load: () => import('../features/reports/pages/ReportDesignPage') },
} satisfies Record<string, PageEntry>;
