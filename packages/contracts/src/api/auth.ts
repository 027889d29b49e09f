import { z } from 'zod';
import { AGREEMENT_TYPES, LANGUAGES, MSG_RECEIVE_TYPES, OrgType, REGIONS, TOOTH_NUMBERING_SYSTEMS } from '../enums.js';
import { FIELD_MAX } from '../constants.js';
import { zAccount, zBool, zEmail, zIntOf, zPassword, zPhone, zRequiredText, zText, zToken } from './fields.js';

export const LoginBody = z.object({
  account: zRequiredText(FIELD_MAX.email),
  password: zPassword,
  saveLogin: zBool.default(false),
  captchaId: zText(FIELD_MAX.token).optional(),
  captchaCode: zText(16).optional(),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const TokenPair = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type TokenPair = z.infer<typeof TokenPair>;

/** Sent with a failed login so the page knows to show the captcha and the find-my-site offer. */
export const LoginFailureData = z.object({ failures: z.number(), captchaRequired: z.boolean() }).nullable();

export const RefreshBody = z.object({ refreshToken: zToken });
export const FreeLoginBody = z.object({ sign: zToken });

export const CheckUsernameBody = z.object({ account: zAccount });

const registrationOrgType = z.preprocess(
  (v) => (v === 'clinic' ? OrgType.Clinic : v === 'lab' ? OrgType.Lab : typeof v === 'string' ? Number(v) : v),
  z.union([z.literal(OrgType.Clinic), z.literal(OrgType.Lab)]),
);

const RegistrationCore = {
  orgType: registrationOrgType,
  region: z.enum(REGIONS),
  organizationName: zRequiredText(FIELD_MAX.organizationName),
  account: zAccount,
  email: zEmail,
  phone: zPhone.optional().or(z.literal('')),
  displayName: zRequiredText(FIELD_MAX.name),
  password: zPassword,
  confirmPassword: zPassword,
  language: z.enum(LANGUAGES).default('en'),
  agreePrivacy: zBool,
  agreeCookie: zBool,
  agreeTerms: zBool,
};

/** `user/regist`: a clinic or laboratory administrator with the organization's name. */
export const RegisterBody = z.object(RegistrationCore);
export type RegisterBody = z.infer<typeof RegisterBody>;

/** `company/companyRegist`: the same plus the organization details a laboratory review needs. */
export const CompanyRegisterBody = z.object({
  ...RegistrationCore,
  abbreviation: zText(FIELD_MAX.abbreviation).optional(),
  licenseCode: zRequiredText(FIELD_MAX.code),
  representativeName: zRequiredText(FIELD_MAX.name),
  country: zRequiredText(FIELD_MAX.name),
  state: zText(FIELD_MAX.name).optional(),
  city: zRequiredText(FIELD_MAX.name),
  district: zText(FIELD_MAX.name).optional(),
  postalCode: zText(20).optional(),
  address: zText(FIELD_MAX.address).optional(),
});
export type CompanyRegisterBody = z.infer<typeof CompanyRegisterBody>;

export const RegisterResult = z.object({ userCode: z.string(), email: z.string(), orgType: z.number() });

export const LinkBody = z.object({ id: zToken });
export const EmailConfirmResult = z.object({ orgType: z.number(), reviewStatus: z.number(), account: z.string() });
export const ResendConfirmBody = z.object({ email: zEmail });
export const ResendActivateBody = z.object({ account: zRequiredText(FIELD_MAX.email) });

export const ForgetPassBody = z.object({ account: zRequiredText(FIELD_MAX.email) });
export const MaskedEmail = z.object({ email: z.string() });
export const ResetPassBody = z.object({ id: zToken, password: zPassword, confirmPassword: zPassword });
export const ForceChangePassBody = z.object({ password: zPassword, confirmPassword: zPassword });
export type ForceChangePassBody = z.infer<typeof ForceChangePassBody>;
export const ChangePassBody = z.object({ oldPassword: zPassword, password: zPassword, confirmPassword: zPassword });
export type ChangePassBody = z.infer<typeof ChangePassBody>;
export const CheckIdentityBody = z.object({ password: zPassword });
export const CheckIdentityResult = z.object({ validUntil: z.string() });

export const AgreementInfo = z.object({ agreementType: z.enum(AGREEMENT_TYPES), version: z.number(), url: z.string() });
export const AgreementReadLogResult = z.object({
  unread: z.array(AgreementInfo),
  /** The user has never accepted an agreement (a user an administrator added, signing in for the first time). */
  firstTime: z.boolean(),
});
export const SaveAgreementBody = z.object({
  agreementType: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .refine((v) => v.split(',').every((t) => (AGREEMENT_TYPES as readonly string[]).includes(t.trim())), {
      message: 'agreementType',
    }),
});

export const UserInfo = z.object({
  userCode: z.string(),
  account: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  displayName: z.string(),
  nickname: z.string().nullable(),
  avatar: z.string().nullable(),
  gender: z.number().nullable(),
  status: z.number(),
  userType: z.number(),
  forceChangePassword: z.boolean(),
  toothNumberingSystem: z.enum(TOOTH_NUMBERING_SYSTEMS),
  msgReceiveType: z.enum(MSG_RECEIVE_TYPES),
  receiveEmail: z.boolean(),
  language: z.enum(LANGUAGES),
  accountChanged: z.boolean(),
  /** Takes part in the improvement programme: the browser sends anonymous usage counts. */
  improvementPlan: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  role: z.object({ code: z.string(), name: z.string() }),
  organization: z.object({
    code: z.string(),
    name: z.string(),
    type: z.number(),
    region: z.enum(REGIONS),
    status: z.number(),
    reviewStatus: z.number(),
    /** Given to the other side to find this organization for a partnership. */
    invitationCode: z.string(),
  }),
});
export type UserInfo = z.infer<typeof UserInfo>;

export const UpdateUserBody = z.object({
  displayName: zRequiredText(FIELD_MAX.name).optional(),
  nickname: zText(FIELD_MAX.name).optional(),
  phone: zPhone.optional().or(z.literal('')),
  gender: zIntOf(1, 2).optional(),
  language: z.enum(LANGUAGES).optional(),
  receiveEmail: zBool.optional(),
  msgReceiveType: z.enum(MSG_RECEIVE_TYPES).optional(),
});
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;
export const ToothNumberingBody = z.object({ toothNumberingSystem: zText(20) });

/** `user/resetPass`: an administrator gives a user a temporary password that must be changed at next sign-in. */
export const ResetUserPassBody = z.object({ userCode: zRequiredText(FIELD_MAX.code) });
export const ResetUserPassResult = z.object({ temporaryPassword: z.string() });
