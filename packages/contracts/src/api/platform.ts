import { z } from 'zod';
import { THEMES } from '../enums.js';
import { MenuType } from '../enums.js';
import { FIELD_MAX } from '../constants.js';
import { zBool, zIntIn, zPage, zRequiredText, zText, zToken } from './fields.js';

export const AppConfig = z.object({
  agreement: z.object({ privacy: z.string(), cookie: z.string(), terms: z.string() }),
  appmanager: z.string(),
  appName: z.string(),
  pageTagName: z.string(),
  apiEndpoint: z.string(),
  wsEndpoint: z.string(),
  isInternationalSite: z.boolean(),
  region: z.string(),
  copyright: z.string(),
  themeCfgJson: z.object({ defaultTheme: z.enum(THEMES) }),
  supportUrl: z.string(),
  registerShowVersion: z.boolean(),
  demoMode: z.boolean(),
});
export type AppConfig = z.infer<typeof AppConfig>;

/** A balancer's readiness or liveness probe. */
export const ProbeResult = z.object({ status: z.literal('ok') });
export type ProbeResult = z.infer<typeof ProbeResult>;

export const MonitorResult = z.object({
  /** 'degraded' while a periodic task fails; the portal still answers. */
  status: z.enum(['ok', 'degraded']),
  database: z.literal('ok'),
  /** Periodic upkeep (recycle-bin purge, mail retries…) whose last run in this process failed. */
  failingTasks: z.array(z.string()),
  uptimeSeconds: z.number(),
  version: z.string(),
});
export const CaptchaInit = z.object({ captchaId: z.string() });
export const CaptchaParams = z.object({ id: zText(FIELD_MAX.token) });

export interface MenuItem {
  code: string;
  name: string;
  path: string | null;
  icon: string | null;
  showFlag: boolean;
  showAlways: boolean;
  component: string | null;
  type: (typeof MenuType)[keyof typeof MenuType];
  apiPermissions: string[];
  children: MenuItem[];
}
/** Recursive, so it is a named component of the OpenAPI document that its children refer to. */
export const MenuItemSchema: z.ZodType<MenuItem> = z
  .lazy(() =>
    z.object({
      code: z.string(),
      name: z.string(),
      path: z.string().nullable(),
      icon: z.string().nullable(),
      showFlag: z.boolean(),
      showAlways: z.boolean(),
      component: z.string().nullable(),
      type: z.union([z.literal(1), z.literal(2)]),
      apiPermissions: z.array(z.string()),
      children: z.array(MenuItemSchema),
    }),
  )
  .meta({ id: 'MenuItem' });
export const UserMenuResult = z.object({ menus: z.array(MenuItemSchema), permissions: z.array(z.string()) });

export const PendingLabsQuery = z.object({ ...zPage, reviewStatus: zIntIn(0, 2).default(0) });
export const PendingLab = z.object({
  organizationCode: z.string(),
  name: z.string(),
  region: z.string(),
  licenseCode: z.string().nullable(),
  representativeName: z.string().nullable(),
  country: z.string().nullable(),
  city: z.string().nullable(),
  adminAccount: z.string(),
  adminEmail: z.string(),
  emailConfirmed: z.boolean(),
  reviewStatus: z.number(),
  reviewReason: z.string().nullable(),
  createdAt: z.string(),
});
export const PendingLabsResult = z.object({ total: z.number(), list: z.array(PendingLab) });
export const ReviewLabBody = z.object({
  organizationCode: zRequiredText(FIELD_MAX.code),
  approve: zBool,
  reason: zText(FIELD_MAX.reason).optional(),
});

export const OutboxQuery = z.object({ ...zPage });
export const OutboxMail = z.object({
  id: z.number(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  status: z.string(),
  createdAt: z.string(),
});
export const OutboxResult = z.object({ total: z.number(), list: z.array(OutboxMail) });
export const DemoMailboxQuery = z.object({ email: zRequiredText(FIELD_MAX.email) });

export { zBool, zToken, zRequiredText };
