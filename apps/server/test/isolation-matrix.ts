import { randomBytes } from 'node:crypto';
import { OrgType } from '@portal/contracts';
import { side } from './fixtures.js';
import { PNG, tusUpload } from './uploads.js';
import { CROWN, MARGIN_LOOP, multipart, type Kind, type Org, type World } from './world.js';

/**
 * Who may call each operation of the API document and what in its request identifies another organization's
 * resource. The isolation test calls every operation as every organization the resource does not belong to (two of
 * each type), without a token and with forged ones, and expects a refusal that changes nothing. An operation
 * missing here, or an entry naming one that no longer exists, fails the test.
 *
 * Each resource belongs to pair A's organizations (`world.pairs[0]`); pair B's are the strangers of the same type.
 */

/** A request relative to /api/v2. */
export interface MatrixRequest {
  path: string;
  method?: 'GET' | 'POST';
  body?: unknown;
  query?: Record<string, string>;
  /** A multipart body instead of JSON. */
  parts?: Parameters<typeof multipart>[0];
}

/** A resource of pair A named in a request: whose it is and who shows it is real by using it. */
export interface Resource {
  /** The organizations it belongs to or is shared with; everyone else is refused. */
  owners: Org[];
  request: MatrixRequest;
  /** The owner whose own call must succeed (defaults to the first owner); `false` when no call by an owner can. */
  owner?: Org | false;
  /** The device token the owner calls with (device API). */
  ownerDevice?: string;
}

export interface MatrixEntry {
  /** The organization types whose role and type let them call it; 'public' for anyone, 'device' for a scanner. */
  callers: readonly Kind[] | 'public' | 'device';
  /** Why the entry is as it is, where that is not obvious. */
  note?: string;
  /** A resource of another organization that the request names (made fresh when the owner's call removes it). */
  resource?: (w: World) => Resource | Promise<Resource>;
  /**
   * What a caller that may call the operation gets for a resource that is not its own: the catalogue codes (404 by
   * default: a stranger cannot tell a resource of another organization from one that does not exist), or
   * 'perItem' for calls that answer each item for itself (200, each item refused, nothing changed).
   */
  strangers?: readonly number[] | 'perItem';
  /** Types that may make the call but not this request of it (a laboratory's order action as a clinic): 403. */
  notThisRequest?: readonly Kind[];
  /** Types for which the call answers about the caller itself and does not read the identifier (200, nothing changed). */
  readsOwn?: readonly Kind[];
  /** For calls that name no resource: a request whose answer, to anyone, must hold nothing of another's. */
  probe?: (w: World) => MatrixRequest;
  /** Public calls whose request carries a credential (signed links, one-time tokens): forged ones are refused. */
  forged?: (w: World) => MatrixRequest[];
}

const a = (w: World) => w.pairs[0];

/** A fresh app in the register (the super administrator's; the owner's call may suspend it). */
async function appOf(w: World, pending = false): Promise<string> {
  const made = await w.h.call('app/create', {
    token: w.inner.token,
    body: {
      name: `App ${randomBytes(4).toString('hex')}`,
      redirectUris: ['https://app.example.test/callback'],
      scopes: ['openid', 'cases:read'],
      contactEmail: 'dev@example.test',
      sendActivationLink: pending,
    },
  });
  return made.data.appCode as string;
}

/** A fresh product of pair A's laboratory (the owner's call may change or remove it). */
async function productOf(w: World): Promise<string> {
  const made = await w.h.call('catalogue/saveProduct', {
    token: a(w).lab.token,
    body: {
      name: `Crown ${randomBytes(4).toString('hex')}`,
      workType: 'Crown',
      materials: ['Zirconia'],
      turnaroundDays: 3,
    },
  });
  return made.data.productCode as string;
}

/** A fresh user of an organization, made by its administrator (another each time: the owner's call may remove it). */
async function staffOf(w: World, o: Org): Promise<string> {
  const account = `staff${randomBytes(4).toString('hex')}`;
  const roles = await w.h.call('user/role/list', { token: o.token });
  const roleCode = roles.data.list.find((r: { builtIn: boolean }) => r.builtIn).roleCode as string;
  const made = await w.h.call('user/save_or_update', {
    token: o.token,
    body: { account, displayName: 'Staff', email: `${account}@example.test`, roleCode },
  });
  return made.data.userCode as string;
}

/** A fresh role of an organization's own (or, for the super administrator with a type, one the type shares). */
async function roleOf(w: World, o: Org, orgType?: number): Promise<string> {
  const made = await w.h.call('user/role/save_or_update', {
    token: o.token,
    body: { name: `Role ${randomBytes(4).toString('hex')}`, ...(orgType ? { orgType } : {}) },
  });
  return made.data.roleCode as string;
}
const PRIVATE = ['clinic', 'lab', 'inner'] as const satisfies readonly Kind[];
const ANY: readonly Kind[] = ['inner', 'clinic', 'lab', 'dealer', 'oem'];
/** A clinic's administrators' calls about their patients; the super administrator holds every right and no case. */
const CLINIC_AND_INNER = ['clinic', 'inner'] as const satisfies readonly Kind[];
const post = (path: string, body?: unknown): MatrixRequest => ({ path, body });

/** A fresh contact of clinic A, named in a request to `path`. */
async function contactOf(w: World, path: string): Promise<Resource> {
  const made = await w.h.call('companyContact/add', {
    token: a(w).clinic.token,
    body: { userName: 'Front desk', email: `desk${randomBytes(4).toString('hex')}@example.test` },
  });
  return { owners: [a(w).clinic], request: post(path, { contactCode: made.data.contactCode }) };
}

/** A signed link with its signature, expiry or resource changed. */
function forgedLinks(link: string, otherCode: string): MatrixRequest[] {
  const url = new URL(link, 'http://x/');
  const code = url.pathname.split('/').pop()!;
  const exp = url.searchParams.get('exp')!;
  const sig = url.searchParams.get('sig')!;
  const at = (c: string, e: string, s: string) => ({
    path: `${url.pathname.slice(1, -code.length)}${c}`,
    method: 'GET' as const,
    query: { exp: e, sig: s },
  });
  return [
    at(code, exp, `${sig.slice(0, -2)}AA`),
    at(code, String(Number(exp) + 60), sig),
    at(code, String(Math.floor(Date.now() / 1000) - 60), sig),
    at(otherCode, exp, sig),
  ];
}

/** A case of clinic A made for a call whose owner's use removes it. */
async function freshCase(w: World, binned = false) {
  const clinic = a(w).clinic;
  const made = await w.h.call('case/create', { token: clinic.token, body: { name: 'Matrix', patientName: 'Mia Moe' } });
  const caseCode = made.data.caseCode as string;
  if (binned) await w.h.call('case/delete', { token: clinic.token, body: { caseCodes: [caseCode] } });
  return caseCode;
}

/** An erasure of clinic A (of a case made for it), answering its certificate's code. */
async function freshErasure(w: World) {
  const made = await w.h.call('case/erase', {
    token: a(w).clinic.token,
    body: { caseCodes: [await freshCase(w)], reason: 'Matrix request' },
  });
  return made.data.erasureCode as string;
}

/** A share of clinic A's own case, made for a call whose owner's use ends it. */
async function freshShare(w: World) {
  const made = await w.h.call('share/create', {
    token: a(w).clinic.token,
    body: { resourceType: 'case', resourceCode: a(w).ownCase, expiresInDays: 1 },
  });
  return made.data.shareCode as string;
}

/** A new order of clinic A to laboratory A, accepted by the laboratory (in production). */
async function acceptedOrder(w: World) {
  const clinic = a(w).clinic;
  const made = await w.h.call('case/create', { token: clinic.token, body: { name: 'Matrix', patientName: 'Mia Moe' } });
  const sent = await w.h.call('order/create', {
    token: clinic.token,
    body: {
      caseCodes: [made.data.caseCode],
      partnerCode: a(w).partnerCode,
      orderType: 'restoration',
      workTypes: ['Crown'],
      teeth: [{ number: 16, shade: 'A2' }],
    },
  });
  const orderCode = sent.data.list[0].orderCode as string;
  await w.h.call('order/action', { token: a(w).lab.token, body: { orderCodes: [orderCode], action: 'accept' } });
  return orderCode;
}

/** A partnership of clinic A with a new laboratory: applied, or accepted too. */
async function freshPartnership(w: World, accepted: boolean) {
  const clinic = a(w).clinic;
  const lab = {
    ...(await side(w.h, OrgType.Lab)),
    kind: 'lab' as const,
    label: 'new lab',
    userCode: '',
    invitationCode: '',
  };
  const applied = await w.h.call('partner/apply', { token: clinic.token, body: { organizationCode: lab.code } });
  const partnerCode = applied.data.partnerCode as string;
  if (accepted) await w.h.call('partner/accept', { token: lab.token, body: { partnerCode } });
  return { lab, partnerCode };
}

/** An annotation of clinic A on its ordered case's model, made for a call whose owner's use removes it. */
async function freshAnnotation(w: World) {
  const made = await w.h.call('case/annotation/add', {
    token: a(w).clinic.token,
    body: { caseCode: a(w).orderedCase, fileCode: a(w).orderedFiles[0], point: [1, 2, 3], text: 'Matrix note' },
  });
  return made.data.annotationCode as string;
}

/** The margin line of the prescribed tooth of pair A's order (drawn again if a call removed it). */
async function freshMarginLine(w: World) {
  await w.h.call('order/marginLine/save', {
    token: a(w).lab.token,
    body: { orderCode: a(w).orderCode, tooth: CROWN.number, fileCode: a(w).orderedFiles[0], points: MARGIN_LOOP },
  });
}

const REPORT_CALLERS = ['clinic', 'inner'] as const satisfies readonly Kind[];

/** A report of clinic A on its own case, made for a call whose owner's use may change or remove it. */
async function freshReport(w: World) {
  const made = await w.h.call('report/create', { token: a(w).clinic.token, body: { caseCode: a(w).ownCase } });
  return made.data.reportCode as string;
}

/** A report of clinic A with a 3D snapshot. */
async function freshSnapshot(w: World) {
  const reportCode = await freshReport(w);
  const { payload, contentType } = multipart([
    { name: 'reportCode', value: reportCode },
    { name: 'view', value: 'upper' },
    { name: 'file', filename: 'upper.png', bytes: PNG },
  ]);
  const res = await w.h.app.inject({
    method: 'POST',
    url: '/api/v2/report/snapshot',
    headers: { authorization: `Bearer ${a(w).clinic.token}`, 'content-type': contentType },
    payload,
  });
  return { reportCode, snapshotCode: res.json<{ data: { code: string } }>().data.code };
}

/** An https endpoint of clinic A (one per world; `fresh` for a call that removes it). */
const endpoints = new WeakMap<World, string>();
async function endpointOf(w: World, fresh = false) {
  const known = endpoints.get(w);
  if (known && !fresh) return known;
  const made = await w.h.call('webhook/create', {
    token: a(w).clinic.token,
    body: { url: 'https://hooks.example.com/matrix', events: ['order.status'] },
  });
  const code = made.data.endpoint.endpointCode as string;
  // Turned off: the matrix's order actions would otherwise become deliveries, written in the background by the
  // dispatcher in the middle of the refusals the matrix checks change nothing.
  await w.h.call('webhook/edit', { token: a(w).clinic.token, body: { endpointCode: code, enabled: false } });
  if (!fresh) endpoints.set(w, code);
  return code;
}

/** A delivery to clinic A's endpoint (written as the dispatcher would; the matrix runs no delivery jobs). */
async function webhookDeliveryOf(w: World) {
  const code = `whd${randomBytes(4).toString('hex')}`;
  await w.h.db.query(
    `INSERT INTO webhook_deliveries (code, endpoint_id, message_id, event_type, payload, status, attempts)
     SELECT $1, id, $2, 'order.status', '{}', 'failed', 1 FROM webhook_endpoints WHERE code = $3`,
    [code, `msg_${code}`, await endpointOf(w)],
  );
  return code;
}

/** The conversation of pair A's partnership (made when clinic A first lists its conversations). */
async function chatOf(w: World) {
  const res = await w.h.call('chat/conversations', { token: a(w).clinic.token });
  return (res.data.list as Array<{ code: string; kind: string }>).find((c) => c.kind === 'partner')!.code;
}

/** An attachment clinic A uploaded to its partner conversation. */
async function chatAttachmentOf(w: World) {
  const { payload, contentType } = multipart([
    { name: 'conversationCode', value: await chatOf(w) },
    { name: 'file', filename: 'shade.png', bytes: PNG },
  ]);
  const res = await w.h.app.inject({
    method: 'POST',
    url: '/api/v2/chat/attachments',
    headers: { authorization: `Bearer ${a(w).clinic.token}`, 'content-type': contentType },
    payload,
  });
  return res.json<{ data: { list: Array<{ code: string }> } }>().data.list[0]!.code;
}

export const ISOLATION_MATRIX: Record<string, MatrixEntry> = {
  commonMonitor: { callers: 'public' },
  commonReady: { callers: 'public' },
  commonLive: { callers: 'public' },
  appConfigGet: { callers: 'public' },
  commonCaptchaInit: { callers: 'public' },
  commonCaptchaDraw: {
    callers: 'public',
    forged: () => [{ path: `common/captcha/draw/${randomBytes(16).toString('hex')}`, method: 'GET' }],
  },
  login: {
    callers: 'public',
    forged: (w) => [post('login', { account: a(w).dealer.account, password: 'Not#the-password1' })],
  },
  userRefreshToken: {
    callers: 'public',
    forged: () => [post('user/refresh_token', { refreshToken: randomBytes(32).toString('base64url') })],
  },
  userFreeLogin: {
    callers: 'public',
    forged: () => [post('user/free-login', { sign: randomBytes(32).toString('base64url') })],
  },
  userCheckUsernameExist: { callers: 'public' },
  userRegist: { callers: 'public' },
  companyCompanyRegist: { callers: 'public' },
  userEmailConfirm: {
    callers: 'public',
    forged: () => [post('user/email.confirm', { id: randomBytes(32).toString('base64url') })],
  },
  userEmailResendConfirm: { callers: 'public' },
  userEditEmailConfirm: {
    callers: 'public',
    forged: () => [post('user/edit_email/confirm', { id: randomBytes(32).toString('base64url') })],
  },
  companyContactContactEmailVerify: {
    callers: 'public',
    forged: () => [post('companyContact/contactEmailVerify', { verifyCode: randomBytes(32).toString('base64url') })],
  },
  avatar: {
    callers: 'public',
    note: 'served by an unguessable key, as an <img> carries no token',
    forged: () => [{ path: `avatar/${randomBytes(16).toString('hex')}`, method: 'GET' }],
  },
  userResendActivate: { callers: 'public' },
  userForgetPass: { callers: 'public' },
  userGetChangePassEmail: { callers: 'public' },
  userForgetPassEmailConfirm: {
    callers: 'public',
    forged: () => [post('user/forgetPassEmailConfirm', { id: randomBytes(32).toString('base64url') })],
  },
  userForgetPassResetPass: {
    callers: 'public',
    forged: () => [
      post('user/forgetPassResetPass', {
        id: randomBytes(32).toString('base64url'),
        password: 'Fresh#Pass2027',
        confirmPassword: 'Fresh#Pass2027',
      }),
    ],
  },
  mailDemoMailbox: {
    callers: 'public',
    note: 'demo mode is off in tests: nobody reads anyone mail through it',
    forged: (w) => [{ path: 'mail/demoMailbox', method: 'GET', query: { email: a(w).clinic.email } }],
  },
  fileDownload: { callers: 'public', forged: (w) => forgedLinks(a(w).links.fileDownload, w.pairs[1].orderedFiles[0]!) },
  fileViewer: { callers: 'public', forged: (w) => forgedLinks(a(w).links.fileViewer, w.pairs[1].orderedFiles[0]!) },
  exportDownload: { callers: 'public', forged: (w) => forgedLinks(a(w).links.exportDownload, w.pairs[1].exportCode) },
  orderAttachment: { callers: 'public', forged: (w) => forgedLinks(a(w).links.attachment, w.pairs[1].attachmentCode) },
  // Share links: whoever holds a code may open it; a guessed code, a wrong password or a forged file link is refused.
  shareOpen: {
    callers: 'public',
    forged: (w) => [
      post('share/open', { code: randomBytes(16).toString('base64url') }),
      post('share/open', { code: `${a(w).shareCode.slice(0, -2)}AA` }),
    ],
  },
  shareUnlock: {
    callers: 'public',
    forged: () => [post('share/unlock', { code: randomBytes(16).toString('base64url'), password: 'a guess' })],
  },
  shareFile: { callers: 'public', forged: (w) => forgedLinks(a(w).links.shareFile, w.pairs[1].orderedFiles[0]!) },
  shareViewer: { callers: 'public', forged: (w) => forgedLinks(a(w).links.shareViewer, w.pairs[1].orderedFiles[0]!) },
  shareReportImage: {
    callers: 'public',
    forged: (w) => forgedLinks(a(w).links.shareReportImage, w.pairs[1].orderedFiles[1]!),
  },
  shareReportPdf: {
    callers: 'public',
    forged: (w) => forgedLinks(a(w).links.shareReportPdf, w.pairs[1].reportShareCode),
  },
  softwareGetUpdateLog: { callers: 'public' },
  softwareGetUpdateLogDetail: { callers: 'public' },
  commonSpeedTestDownload: { callers: 'public' },
  commonSpeedTestUpload: { callers: 'public' },
  deviceActivate: {
    callers: 'public',
    forged: (w) => [post('device/activate', { serialNumber: a(w).boundSerial, activationCode: 'not-the-code' })],
  },

  deviceHeartbeat: { callers: 'device' },
  deviceCaseCreate: { callers: 'device' },
  deviceCaseComplete: {
    callers: 'device',
    resource: async (w) => {
      const made = await w.h.call('device/case/create', {
        headers: { authorization: `Bearer ${a(w).deviceToken}` },
        body: { name: 'Scan', patientName: 'Ola Nor' },
      });
      return {
        owners: [a(w).clinic],
        request: post('device/case/complete', { caseCode: made.data.caseCode }),
        ownerDevice: a(w).deviceToken,
      };
    },
  },

  userLogout: { callers: ANY },
  userFreeLoginSign: { callers: ANY },
  userCheckIdentity: { callers: ANY },
  userInfo: { callers: ANY, probe: () => post('user/info') },
  userUpdate: { callers: ANY },
  userSetToothNumberingSystem: { callers: ANY },
  // Own space → account info: every call is about the caller's own account.
  userGetUserDetail: { callers: ANY, probe: () => post('user/getUserDetail') },
  userEdit: { callers: ANY },
  userEditUsername: { callers: ANY },
  userEditEmail: { callers: ANY, note: 'a sensitive action: refused before the password is confirmed' },
  userEditAvatar: { callers: ANY },
  userAuthAppList: { callers: ANY, probe: () => post('user/authApp/list') },
  userAuthAppRevoke: {
    callers: ANY,
    resource: async (w) => {
      const appCode = `app${randomBytes(4).toString('hex')}`;
      await w.h.db.query(`INSERT INTO authorized_apps (app_code, user_id, app_name) VALUES ($1, $2, 'Design studio')`, [
        appCode,
        a(w).clinic.userId,
      ]);
      return { owners: [a(w).clinic], request: post('user/authApp/revoke', { appCode }) };
    },
  },
  // Own space → contacts: an organization's people outside the portal who receive its order mails (with the order
  // permission: clinics, laboratories and the super administrator).
  companyContactList: { callers: PRIVATE, probe: () => post('companyContact/list') },
  companyContactAdd: { callers: PRIVATE },
  companyContactResendVerifyEmail: {
    callers: PRIVATE,
    resource: (w) => contactOf(w, 'companyContact/resendVerifyEmail'),
  },
  companyContactDelete: { callers: PRIVATE, resource: (w) => contactOf(w, 'companyContact/delete') },
  userChangePass: { callers: ANY },
  userForceChangePass: { callers: ANY, note: 'only for a user who must change a forced password' },
  userResetPass: {
    callers: ANY,
    note: "an organization's administrator resets its own users' passwords; the super administrator anyone's",
    resource: (w) => ({
      owners: [a(w).clinic, w.inner],
      owner: false,
      request: post('user/resetPass', { userCode: a(w).clinic.userCode }),
    }),
  },
  userQueryUserAgreementReadLog: { callers: ANY, probe: () => post('user/queryUserAgreementReadLog') },
  userSaveUserAgreementReadLog: { callers: ANY },
  permissionListUserMenu: { callers: ANY, probe: () => post('permission/listUserMenu') },
  // Account → Users and Role Management: an organization's administrators manage its own users and roles; the
  // super administrator everyone's.
  userListByPage: { callers: ANY, probe: () => post('user/listByPage', {}) },
  userDetail: {
    callers: ANY,
    resource: (w) => ({
      owners: [a(w).clinic, w.inner],
      request: post('user/detail', { userCode: a(w).clinic.userCode }),
    }),
  },
  userSaveOrUpdate: {
    callers: ANY,
    resource: (w) => ({
      owners: [a(w).clinic, w.inner],
      request: post('user/save_or_update', {
        userCode: a(w).clinic.userCode,
        account: a(w).clinic.account,
        displayName: 'Clinic A administrator',
        email: a(w).clinic.email,
        roleCode: 'clinic_admin',
      }),
    }),
  },
  userEnable: {
    callers: ANY,
    resource: async (w) => ({
      owners: [a(w).clinic, w.inner],
      request: post('user/enable', { userCodes: [await staffOf(w, a(w).clinic)] }),
    }),
  },
  userDisable: {
    callers: ANY,
    resource: async (w) => ({
      owners: [a(w).clinic, w.inner],
      request: post('user/disable', { userCodes: [await staffOf(w, a(w).clinic)] }),
    }),
  },
  userDelByIds: {
    callers: ANY,
    resource: async (w) => ({
      owners: [a(w).clinic, w.inner],
      request: post('user/delByIds', { userCodes: [await staffOf(w, a(w).clinic)] }),
    }),
  },
  userRoleList: { callers: ANY, probe: () => post('user/role/list') },
  userRoleListByPage: { callers: ANY, probe: () => post('user/role/listByPage', {}) },
  userRoleSaveOrUpdate: {
    callers: ANY,
    resource: async (w) => ({
      owners: [a(w).clinic, w.inner],
      request: post('user/role/save_or_update', { roleCode: await roleOf(w, a(w).clinic), name: 'Renamed' }),
    }),
  },
  userRoleSetDefault: {
    callers: ANY,
    note: 'only the super administrator picks the default role of a type: others are refused with 1002',
    strangers: [1002],
    resource: async (w) => ({
      owners: [w.inner],
      request: post('user/role/setDefault', { roleCode: await roleOf(w, w.inner, 2) }),
    }),
  },
  userRoleDelByIds: {
    callers: ANY,
    resource: async (w) => ({
      owners: [a(w).clinic, w.inner],
      request: post('user/role/delByIds', { roleCodes: [await roleOf(w, a(w).clinic)] }),
    }),
  },
  userRoleAllotRolePermission: {
    callers: ANY,
    resource: async (w) => ({
      owners: [a(w).clinic, w.inner],
      request: post('user/role/allotRolePermission', {
        roleCode: await roleOf(w, a(w).clinic),
        menuCodes: ['dashboard'],
      }),
    }),
  },
  permissionListAllMenu: { callers: ANY, probe: () => post('permission/listAllMenu', {}) },
  permissionListMenuByRole: {
    callers: ANY,
    resource: async (w) => ({
      owners: [a(w).clinic, w.inner],
      request: post('permission/listMenuByRole', { roleCode: await roleOf(w, a(w).clinic) }),
    }),
  },

  companyListReview: { callers: ['inner'], probe: () => post('company/listReview', {}) },
  companyReview: {
    callers: ['inner'],
    note: 'the pending laboratory is decided by the super administrator alone',
    resource: (w) => ({
      owners: [w.inner],
      request: post('company/review', { organizationCode: w.pendingLabCode, approve: true }),
    }),
  },
  mailListOutbox: { callers: ['inner'], probe: () => post('mail/listOutbox', {}) },
  userSignInDisputes: {
    callers: ['inner'],
    note: 'sign-in identifiers of every organization: the super administrator resolves them',
    probe: () => post('user/signInDisputes', {}),
  },
  companyListByPage: { callers: ['inner'], probe: () => post('company/listByPage', { pageSize: 100 }) },
  // The super administrator reads any organization's information; nobody else reads another's.
  companyDetail: {
    callers: ['inner'],
    resource: (w) => ({ owners: [w.inner], request: post('company/detail', { organizationCode: a(w).clinic.code }) }),
  },
  companyDetailImage: {
    callers: ['inner'],
    note: 'no organization of the world has stored a licence image: the super administrator gets 404, everyone else 403',
    probe: (w) => post('company/detailImage', { organizationCode: a(w).clinic.code, target: 'license' }),
  },
  // The update log and the usage counts are the platform's own, written and read by the super administrator.
  softwareUpdateLogListByPage: { callers: ['inner'], probe: () => post('software/update_log/listByPage', {}) },
  softwareUpdateLogDetail: { callers: ['inner'] },
  softwareUpdateLogSaveOrUpdate: { callers: ['inner'] },
  softwareUpdateLogDelByIds: { callers: ['inner'] },
  usageWeekly: { callers: ['inner'], probe: () => post('usage/weekly', {}) },
  softwareUpdateLogMark: { callers: ANY, note: "the caller's own mark", probe: () => post('software/update_log_mark') },
  softwareUpdateLogRead: { callers: ANY, note: 'entries are the platform’s; the read is the caller’s own' },
  userParticipateImprovementPlan: { callers: ANY },
  userCancelParticipateImprovementPlan: { callers: ANY },
  usageEvents: { callers: ANY, note: 'anonymous counts: nothing of anyone is stored or answered' },
  companyDisable: {
    callers: ['inner'],
    note: "the super administrator's own call is not made: it would lock clinic A out of every later call",
    resource: (w) => ({
      owners: [w.inner],
      owner: false,
      request: post('company/disable', { organizationCodes: [a(w).clinic.code] }),
    }),
  },
  companyEnable: {
    callers: ['inner'],
    resource: (w) => ({
      owners: [w.inner],
      request: post('company/enable', { organizationCodes: [a(w).clinic.code] }),
    }),
  },
  companyRestore: {
    callers: ['inner'],
    note: 'no organization of the world is closed: the super administrator gets 404, everyone else 403',
    probe: (w) => post('company/restore', { organizationCode: a(w).clinic.code }),
  },
  // Own space → Organization: every call reads or changes the caller's own organization and names no other.
  companyCompanyInfo: { callers: ANY, probe: () => post('company/companyInfo') },
  companyEditCompany: {
    callers: ANY,
    note: 'the probe is refused by the service (no such country), so no organization of the world is renamed',
    probe: () => post('company/editCompany', { name: 'Probe', countryId: 'ZZ' }),
  },
  companyEditScanRetention: {
    callers: ANY,
    note: "a clinic changes its own retention only; other organizations' calls are refused by the service",
    probe: () => post('company/editScanRetention', { scanRetentionDays: 30 }),
  },
  companyUploadImage: {
    callers: ANY,
    probe: () => ({
      path: 'company/uploadImage',
      parts: [
        { name: 'target', value: 'organization' },
        { name: 'file', filename: 'logo.png', bytes: PNG },
      ],
    }),
  },
  companyImage: { callers: ANY, probe: () => post('company/image', { target: 'license' }) },
  areaListAreaByParentId: { callers: ANY, probe: () => post('area/listAreaByParentId', { parentId: 'US' }) },
  companyCloseAccount: {
    callers: ANY,
    note: 'the probe never names the organization, so it is refused (password or confirmation) and nothing closes',
    probe: () => post('company/close_account', { confirmName: 'Not the organization name' }),
  },

  caseList: { callers: PRIVATE, probe: () => post('case/list', { pageSize: 100 }) },
  caseDetail: {
    callers: PRIVATE,
    resource: (w) => ({ owners: [a(w).clinic], request: post('case/detail', { caseCode: a(w).ownCase }) }),
  },
  caseCreate: { callers: PRIVATE },
  // A share belongs to the organization that made it: the other party of an order sees its own shares only.
  shareCreate: {
    callers: PRIVATE,
    resource: (w) => ({
      owners: [a(w).clinic],
      request: post('share/create', { resourceType: 'case', resourceCode: a(w).ownCase, expiresInDays: 1 }),
    }),
  },
  shareList: {
    callers: PRIVATE,
    resource: (w) => ({
      owners: [a(w).clinic],
      request: post('share/list', { resourceType: 'case', resourceCode: a(w).orderedCase }),
    }),
  },
  shareAccessLog: {
    callers: ANY,
    note: 'no permission of its own: a share is found only in the organization that made it',
    resource: (w) => ({ owners: [a(w).clinic], request: post('share/accessLog', { shareCode: a(w).shareCode }) }),
  },
  shareRevoke: {
    callers: ANY,
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('share/revoke', { shareCode: await freshShare(w) }),
    }),
  },
  shareSendMail: {
    callers: ANY,
    resource: (w) => ({
      owners: [a(w).clinic],
      request: post('share/sendMail', { shareCode: a(w).shareCode, email: 'friend@example.test', language: 'en' }),
    }),
  },
  caseUpdate: {
    callers: PRIVATE,
    resource: (w) => ({
      owners: [a(w).clinic],
      request: post('case/update', { caseCode: a(w).ownCase, name: 'Renamed', patientName: a(w).patientNames[1] }),
    }),
  },
  caseDelete: {
    callers: PRIVATE,
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('case/delete', { caseCodes: [await freshCase(w)] }),
    }),
  },
  caseRecycleBin: { callers: PRIVATE, probe: () => post('case/recycleBin', {}) },
  caseRestore: {
    callers: PRIVATE,
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('case/restore', { caseCodes: [await freshCase(w, true)] }),
    }),
  },
  casePurge: {
    callers: PRIVATE,
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('case/purge', { caseCodes: [await freshCase(w, true)] }),
    }),
  },
  caseRecycleBinEmpty: { callers: PRIVATE, note: "empties the caller's own bin" },
  caseErase: {
    callers: CLINIC_AND_INNER,
    note: "the clinic's administrators erase their own patients' data",
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('case/erase', { caseCodes: [await freshCase(w)], reason: 'Matrix request' }),
    }),
  },
  caseErasureList: { callers: CLINIC_AND_INNER, probe: () => post('case/erasure/list', {}) },
  caseErasureGet: {
    callers: CLINIC_AND_INNER,
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('case/erasure/get', { erasureCode: await freshErasure(w) }),
    }),
  },
  caseLegalHold: {
    callers: CLINIC_AND_INNER,
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('case/legalHold', { caseCode: await freshCase(w), reason: 'Matrix claim' }),
    }),
  },
  caseLegalHoldRelease: {
    callers: CLINIC_AND_INNER,
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('case/legalHold/release', { caseCode: await freshCase(w) }),
    }),
  },
  dentistList: { callers: PRIVATE, probe: () => post('dentist/list') },
  dentistSave: {
    callers: PRIVATE,
    resource: (w) => ({
      owners: [a(w).clinic],
      request: post('dentist/save', { id: a(w).dentistId, name: 'Dr Renamed' }),
    }),
  },
  dentistDelete: {
    callers: PRIVATE,
    resource: async (w) => {
      const made = await w.h.call('dentist/save', {
        token: a(w).clinic.token,
        body: { name: `Dr ${randomBytes(3).toString('hex')}` },
      });
      return { owners: [a(w).clinic], request: post('dentist/delete', { id: made.data.id }) };
    },
  },
  fileDownloadGrant: {
    callers: PRIVATE,
    resource: (w) => ({ owners: [a(w).clinic], request: post('file/downloadGrant', { fileCode: a(w).ownFiles[0] }) }),
  },
  ossOssSts: {
    callers: PRIVATE,
    resource: (w) => ({
      owners: [a(w).clinic],
      request: { path: 'oss/ossSts', method: 'GET', query: { caseCode: a(w).ownCase } },
    }),
  },
  ossBlobToken: {
    callers: PRIVATE,
    resource: (w) => ({
      owners: [a(w).clinic],
      request: { path: 'oss/blobToken', method: 'GET', query: { fileCode: a(w).ownFiles[0]! } },
    }),
  },
  fileDelete: {
    callers: PRIVATE,
    resource: async (w) => {
      const caseCode = await freshCase(w);
      await tusUpload(w.base, a(w).clinic.token, PNG, { caseCode, filename: 'gone.png' });
      const detail = await w.h.call('case/detail', { token: a(w).clinic.token, body: { caseCode } });
      return { owners: [a(w).clinic], request: post('file/delete', { fileCode: detail.data.files[0].fileCode }) };
    },
  },
  storageUsage: { callers: PRIVATE, probe: () => post('storage/usage') },
  exportCreate: {
    callers: PRIVATE,
    resource: (w) => ({
      owners: [a(w).clinic],
      request: post('export/create', { caseCodes: [a(w).ownCase], types: ['png'] }),
    }),
  },
  exportStatus: {
    callers: PRIVATE,
    resource: (w) => ({ owners: [a(w).clinic], request: post('export/status', { exportCode: a(w).exportCode }) }),
  },

  equipmentListEquipment: { callers: ANY, probe: () => post('equipment/listEquipment', { pageSize: 100 }) },
  equipmentEditName: {
    callers: ANY,
    note: 'only the clinic that bound a scanner names it',
    resource: (w) => ({
      owners: [a(w).clinic],
      request: post('equipment/editName', { serialNumber: a(w).boundSerial, name: 'Chair 2' }),
    }),
  },
  equipmentActivate: {
    callers: ['clinic'],
    note: 'a scanner bound to one clinic cannot be bound by another, even with its activation code (2029 tells no more)',
    strangers: [2029],
    resource: (w) => ({
      owners: [a(w).clinic],
      owner: false,
      request: post('equipment/activate', {
        serialNumber: a(w).boundSerial,
        activationCode: a(w).activationCodes[a(w).boundSerial],
      }),
    }),
  },
  equipmentListDesignatedLabs: {
    callers: ['clinic'],
    resource: (w) => ({
      owners: [a(w).clinic],
      request: post('equipment/listDesignatedLabs', { serialNumber: a(w).boundSerial }),
    }),
  },
  equipmentSaveDesignatedLabs: {
    callers: ['clinic'],
    resource: (w) => ({
      owners: [a(w).clinic],
      request: post('equipment/saveDesignatedLabs', { serialNumber: a(w).boundSerial, labCodes: [a(w).lab.code] }),
    }),
  },
  equipmentListCertifiedLabs: { callers: ['oem'], probe: () => post('equipment/listCertifiedLabs') },
  equipmentSaveCertifiedLabs: { callers: ['oem'], note: "an OEM's own list; laboratory codes are public" },
  equipmentAssignDealer: {
    callers: ['oem', 'inner'],
    resource: (w) => ({
      owners: [a(w).oem],
      request: post('equipment/assignDealer', { serialNumbers: [a(w).freshSerial], dealerCode: a(w).dealer.code }),
    }),
  },
  equipmentImportProductCatalog: { callers: ['oem', 'inner'], note: "an OEM's own catalogue" },

  userPartnerCheckInvitationCode: { callers: ['clinic', 'lab'], note: 'an invitation code is meant to be passed on' },
  partnerSearch: {
    callers: ['clinic', 'lab'],
    probe: (w) => post('partner/search', { keyword: a(w).patientNames[1]!.slice(0, 8) }),
  },
  partnerApply: {
    callers: ['clinic', 'lab'],
    note: 'organization codes are public: applying is how partnerships start',
  },
  partnerAccept: {
    callers: ['clinic', 'lab'],
    resource: async (w) => {
      const { lab, partnerCode } = await freshPartnership(w, false);
      return { owners: [a(w).clinic, lab], owner: lab, request: post('partner/accept', { partnerCode }) };
    },
  },
  partnerReject: {
    callers: ['clinic', 'lab'],
    resource: async (w) => {
      const { lab, partnerCode } = await freshPartnership(w, false);
      return { owners: [a(w).clinic, lab], owner: lab, request: post('partner/reject', { partnerCode, reason: 'No' }) };
    },
  },
  partnerCancel: {
    callers: ['clinic', 'lab'],
    resource: async (w) => {
      const { lab, partnerCode } = await freshPartnership(w, false);
      return { owners: [a(w).clinic, lab], request: post('partner/cancel', { partnerCode }) };
    },
  },
  partnerTerminate: {
    callers: ['clinic', 'lab'],
    resource: async (w) => {
      const { lab, partnerCode } = await freshPartnership(w, true);
      return { owners: [a(w).clinic, lab], request: post('partner/terminate', { partnerCode, reason: 'Moved' }) };
    },
  },
  partnerList: { callers: ['clinic', 'lab'], probe: () => post('partner/list', { pageSize: 100 }) },
  userGetPartnerInfo: {
    callers: ['clinic', 'lab'],
    resource: (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: post('user/getPartnerInfo', { partnerCode: a(w).partnerCode }),
    }),
  },
  partnerInviteLab: { callers: ['clinic'] },
  partnerConfirmInvitation: {
    callers: ['lab'],
    note: 'the emailed token is the credential of the invited laboratory',
    forged: () => [post('partner/confirmInvitation', { token: randomBytes(32).toString('base64url') })],
  },

  orderCreate: {
    callers: ['clinic'],
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('order/create', {
        caseCodes: [await freshCase(w)],
        sharePatientName: false,
        partnerCode: a(w).partnerCode,
        orderType: 'restoration',
        workTypes: ['Crown'],
        teeth: [CROWN],
      }),
    }),
  },
  orderRemake: {
    callers: ['clinic'],
    note: 'a remake is asked by the clinic of its own shipped order; its laboratory has no such button',
    resource: async (w) => {
      const clinic = a(w).clinic;
      const lab = a(w).lab;
      const made = await w.h.call('order/create', {
        token: clinic.token,
        body: {
          caseCodes: [await freshCase(w)],
          partnerCode: a(w).partnerCode,
          orderType: 'restoration',
          workTypes: ['Crown'],
          teeth: [CROWN],
        },
      });
      const orderCode = (made.data.list as Array<{ orderCode: string }>)[0]!.orderCode;
      for (const [action, extra] of [
        ['accept', {}],
        ['ready', {}],
        ['ship', { trackingNumber: 'MATRIX-1' }],
      ] as const)
        await w.h.call('order/action', { token: lab.token, body: { orderCodes: [orderCode], action, ...extra } });
      return {
        owners: [clinic, lab],
        owner: clinic,
        request: post('order/remake', { orderCode, reason: 'fit', note: 'Open margin' }),
      };
    },
  },
  orderAction: {
    callers: ['clinic', 'lab'],
    strangers: 'perItem',
    note: 'Accepting is a laboratory action: a clinic holds no permission for it, whoever owns the order.',
    notThisRequest: ['clinic'],
    resource: (w) => ({
      owners: [a(w).clinic, a(w).lab],
      owner: a(w).lab,
      request: post('order/action', { orderCodes: [a(w).orderCode], action: 'accept' }),
    }),
  },
  orderList: { callers: ['clinic', 'lab'], probe: () => post('order/list', { pageSize: 100 }) },
  orderParties: { callers: ['clinic', 'lab'], probe: () => post('order/parties', {}) },
  orderLabs: { callers: ['clinic'], probe: () => post('order/labs', {}) },
  orderDetail: {
    callers: ['clinic', 'lab'],
    resource: (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: post('order/detail', { orderCode: a(w).orderCode }),
    }),
  },
  orderExport: { callers: ['clinic', 'lab'], probe: () => post('order/export', { format: 'csv' }) },
  orderSaveAttachments: {
    callers: ['clinic', 'lab'],
    resource: (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: {
        path: 'order/save_attachments',
        parts: [
          { name: 'orderCode', value: a(w).orderCode },
          { name: 'file', filename: 'more.png', bytes: PNG },
        ],
      },
    }),
  },
  orderAttachmentLink: {
    callers: ['clinic', 'lab', 'inner'],
    resource: (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: post('order/attachmentLink', { attachmentCode: a(w).attachmentCode }),
    }),
  },
  orderRequiredFields: {
    callers: ['clinic', 'lab'],
    note: 'a laboratory reads its own rules: the partnership is named by clinics',
    readsOwn: ['lab'],
    resource: (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: post('order/requiredFields', { partnerCode: a(w).partnerCode }),
    }),
  },
  scorecardLab: {
    callers: ['clinic', 'lab'],
    note: 'a laboratory reads its own card; a clinic names one of its partnerships (any status): a laboratory it has no partnership with stays hidden (404)',
    readsOwn: ['lab'],
    resource: (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: post('scorecard/lab', { partnerCode: a(w).partnerCode }),
    }),
  },
  orderSaveRequiredFields: { callers: ['lab'], note: "a laboratory's own rules" },
  orderToothStage: {
    callers: ['lab'],
    note: 'the laboratory of the order marks its progress; the clinic of the order reads it',
    resource: async (w) => ({
      owners: [a(w).lab],
      request: post('order/toothStage', { orderCode: await acceptedOrder(w), teeth: [16], stage: 'milling' }),
    }),
  },
  catalogueProducts: {
    callers: ['clinic', 'lab'],
    note: 'a laboratory reads its own catalogue: the partnership is named by clinics',
    readsOwn: ['lab'],
    resource: async (w) => {
      await productOf(w);
      return {
        owners: [a(w).clinic, a(w).lab],
        request: post('catalogue/products', { partnerCode: a(w).partnerCode }),
      };
    },
  },
  catalogueSaveProduct: {
    callers: ['lab'],
    resource: async (w) => ({
      owners: [a(w).lab],
      request: post('catalogue/saveProduct', {
        productCode: await productOf(w),
        name: `Changed ${randomBytes(4).toString('hex')}`,
        workType: 'Veneer',
        turnaroundDays: 1,
      }),
    }),
  },
  catalogueDeleteProduct: {
    callers: ['lab'],
    resource: async (w) => ({
      owners: [a(w).lab],
      request: post('catalogue/deleteProduct', { productCode: await productOf(w) }),
    }),
  },
  catalogueCalendar: { callers: ['lab'], probe: () => post('catalogue/calendar') },
  catalogueSaveCalendar: { callers: ['lab'], note: "a laboratory's own calendar" },
  catalogueEstimate: {
    callers: ['clinic'],
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('catalogue/estimate', { partnerCode: a(w).partnerCode, productCode: await productOf(w) }),
    }),
  },
  msgListMsgByOrder: {
    callers: ['clinic', 'lab'],
    resource: (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: post('msg/listMsgByOrder', { orderCode: a(w).orderCode }),
    }),
  },
  msgSend: {
    callers: ['clinic', 'lab'],
    resource: (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: post('msg/send', { orderCode: a(w).orderCode, content: 'Hello' }),
    }),
  },
  msgListSysMsg: { callers: ['clinic', 'lab'], probe: () => post('msg/listSysMsg', { pageSize: 100 }) },
  msgUnreadCount: { callers: ['clinic', 'lab'], probe: () => post('msg/unreadCount') },
  msgRead: {
    callers: ['clinic', 'lab', 'inner'],
    note: "marks the caller's own notifications: another's ids or order mark nothing",
    strangers: 'perItem',
    resource: (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: post('msg/read', { ids: a(w).notificationIds, orderCode: a(w).orderCode }),
    }),
  },
  userIndexDashboard: { callers: ANY, probe: () => post('user/indexDashboard') },
  userLineChart: { callers: ANY, probe: () => post('user/lineChart', {}) },
  userAcceptOrderLineChart: { callers: ANY, probe: () => post('user/acceptOrderLineChart', {}) },
  // Counts only, of the scanners the caller's organization sells, makes or owns (the device list's scope).
  dashboardDevices: { callers: ANY, probe: () => post('dashboard/devices', {}) },
  // Oral health reports are the clinic's (the super administrator's wildcard reaches the calls, not the reports).
  reportList: {
    callers: REPORT_CALLERS,
    resource: (w) => ({ owners: [a(w).clinic], request: post('report/list', { caseCode: a(w).ownCase }) }),
  },
  reportCreate: {
    callers: REPORT_CALLERS,
    resource: (w) => ({ owners: [a(w).clinic], request: post('report/create', { caseCode: a(w).ownCase }) }),
  },
  reportDetail: {
    callers: REPORT_CALLERS,
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('report/detail', { reportCode: await freshReport(w) }),
    }),
  },
  reportSave: {
    callers: REPORT_CALLERS,
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('report/save', {
        reportCode: await freshReport(w),
        content: { language: 'en', summary: 'Brush twice a day.', findings: [{ tooth: 11, category: 'aethetics' }] },
      }),
    }),
  },
  reportPublish: {
    callers: REPORT_CALLERS,
    resource: async (w) => {
      const reportCode = await freshReport(w);
      await w.h.call('report/save', {
        token: a(w).clinic.token,
        body: { reportCode, content: { language: 'en', summary: 'Brush twice a day.' } },
      });
      return { owners: [a(w).clinic], request: post('report/publish', { reportCode }) };
    },
  },
  reportDelete: {
    callers: REPORT_CALLERS,
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('report/delete', { reportCode: await freshReport(w) }),
    }),
  },
  reportSnapshot: {
    callers: REPORT_CALLERS,
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: {
        path: 'report/snapshot',
        parts: [
          { name: 'reportCode', value: await freshReport(w) },
          { name: 'view', value: 'bite' },
          { name: 'file', filename: 'bite.png', bytes: PNG },
        ],
      },
    }),
  },
  reportSnapshotDelete: {
    callers: REPORT_CALLERS,
    resource: async (w) => {
      const { reportCode, snapshotCode } = await freshSnapshot(w);
      return { owners: [a(w).clinic], request: post('report/snapshot/delete', { reportCode, snapshotCode }) };
    },
  },
  reportView: {
    callers: REPORT_CALLERS,
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('report/view', { reportCode: await freshReport(w) }),
    }),
  },
  reportImage: {
    callers: REPORT_CALLERS,
    resource: async (w) => {
      const { reportCode, snapshotCode } = await freshSnapshot(w);
      return {
        owners: [a(w).clinic],
        request: post('report/image', { reportCode, source: 'snapshot', code: snapshotCode }),
      };
    },
  },
  reportPdf: {
    callers: REPORT_CALLERS,
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('report/pdf', { reportCode: await freshReport(w) }),
    }),
  },
  // Annotations are the case's organization's: the laboratory of an order reads them through the order only.
  caseAnnotationList: {
    callers: PRIVATE,
    note: "the laboratory of the case's order is a stranger here: it reads them with order/annotation/list",
    resource: (w) => ({ owners: [a(w).clinic], request: post('case/annotation/list', { caseCode: a(w).orderedCase }) }),
  },
  caseAnnotationAdd: {
    callers: PRIVATE,
    resource: (w) => ({
      owners: [a(w).clinic],
      request: post('case/annotation/add', {
        caseCode: a(w).orderedCase,
        fileCode: a(w).orderedFiles[0],
        point: [0.5, 1, -1.5],
        text: 'Check the contact',
      }),
    }),
  },
  caseAnnotationDelete: {
    callers: PRIVATE,
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('case/annotation/delete', { annotationCode: await freshAnnotation(w) }),
    }),
  },
  orderAnnotationList: {
    callers: ['clinic', 'lab'],
    resource: (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: post('order/annotation/list', { orderCode: a(w).orderCode }),
    }),
  },
  chatConversations: {
    callers: PRIVATE,
    note: "the caller's own conversations (the operator answers support)",
    probe: () => post('chat/conversations'),
  },
  chatMessages: {
    callers: PRIVATE,
    resource: async (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: post('chat/messages', { conversationCode: await chatOf(w) }),
    }),
  },
  chatSend: {
    callers: PRIVATE,
    resource: async (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: post('chat/send', { conversationCode: await chatOf(w), clientId: 'isolation-1', body: 'Hello' }),
    }),
  },
  chatRead: {
    callers: PRIVATE,
    resource: async (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: post('chat/read', { conversationCode: await chatOf(w), upTo: 1 }),
    }),
  },
  chatSearch: {
    callers: PRIVATE,
    resource: async (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: post('chat/search', { conversationCode: await chatOf(w), q: 'Hello' }),
    }),
  },
  chatExport: {
    callers: PRIVATE,
    resource: async (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: post('chat/export', { conversationCode: await chatOf(w) }),
    }),
  },
  chatAttachments: {
    callers: PRIVATE,
    resource: async (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: {
        path: 'chat/attachments',
        parts: [
          { name: 'conversationCode', value: await chatOf(w) },
          { name: 'file', filename: 'shade.png', bytes: PNG },
        ],
      },
    }),
  },
  chatAttachment: {
    callers: PRIVATE,
    resource: async (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: post('chat/attachment', { attachmentCode: await chatAttachmentOf(w) }),
    }),
  },
  orderMarginLineList: {
    callers: ['clinic', 'lab'],
    resource: (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: post('order/marginLine/list', { orderCode: a(w).orderCode }),
    }),
  },
  orderMarginLineSave: {
    callers: ['clinic', 'lab'],
    note: 'either party of the order draws it (the clinic with order:create, the laboratory with order:produce)',
    resource: (w) => ({
      owners: [a(w).clinic, a(w).lab],
      request: post('order/marginLine/save', {
        orderCode: a(w).orderCode,
        tooth: CROWN.number,
        fileCode: a(w).orderedFiles[0],
        points: MARGIN_LOOP,
      }),
    }),
  },
  orderMarginLineDelete: {
    callers: ['clinic', 'lab'],
    resource: async (w) => {
      await freshMarginLine(w);
      return {
        owners: [a(w).clinic, a(w).lab],
        request: post('order/marginLine/delete', { orderCode: a(w).orderCode, tooth: CROWN.number }),
      };
    },
  },
  webhookList: { callers: PRIVATE, note: "the caller's own endpoints", probe: () => post('webhook/list') },
  webhookCreate: { callers: PRIVATE },
  webhookEdit: {
    callers: PRIVATE,
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('webhook/edit', { endpointCode: await endpointOf(w), description: 'Matrix' }),
    }),
  },
  webhookDelete: {
    callers: PRIVATE,
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('webhook/delete', { endpointCode: await endpointOf(w, true) }),
    }),
  },
  webhookRotateSecret: {
    callers: PRIVATE,
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('webhook/rotateSecret', { endpointCode: await endpointOf(w) }),
    }),
  },
  webhookDeliveries: {
    callers: PRIVATE,
    resource: async (w) => {
      // A log with a delivery in it, so the paging gate has a row to page.
      await webhookDeliveryOf(w);
      return { owners: [a(w).clinic], request: post('webhook/deliveries', { endpointCode: await endpointOf(w) }) };
    },
  },
  webhookReplay: {
    callers: PRIVATE,
    resource: async (w) => ({
      owners: [a(w).clinic],
      request: post('webhook/replay', { deliveryCode: await webhookDeliveryOf(w) }),
    }),
  },
  // Apps: the register is the super administrator's; the interaction calls are every signed-in user's own.
  appList: { callers: ['inner'], probe: () => post('app/list') },
  appCreate: { callers: ['inner'] },
  appEdit: {
    callers: ['inner'],
    resource: async (w) => ({
      owners: [w.inner],
      request: post('app/edit', { appCode: await appOf(w), name: 'Matrix' }),
    }),
  },
  appSuspend: {
    callers: ['inner'],
    resource: async (w) => ({ owners: [w.inner], request: post('app/suspend', { appCode: await appOf(w) }) }),
  },
  appResume: {
    callers: ['inner'],
    resource: async (w) => ({ owners: [w.inner], request: post('app/resume', { appCode: await appOf(w) }) }),
  },
  appSendActivation: {
    callers: ['inner'],
    resource: async (w) => ({
      owners: [w.inner],
      request: post('app/sendActivation', { appCode: await appOf(w, true) }),
    }),
  },
  appActivation: {
    callers: 'public',
    forged: () => [post('app/activation', { sign: randomBytes(32).toString('base64url') })],
  },
  appActivate: {
    callers: 'public',
    forged: () => [post('app/activate', { sign: randomBytes(32).toString('base64url') })],
  },
  appCallLog: {
    callers: ['clinic', 'lab', 'dealer', 'oem'],
    note: "the administrators read their own organization's log",
    probe: () => post('app/callLog', {}),
  },
  auditAccessLog: {
    callers: ['clinic'],
    note: "the clinic's administrators read every reading of their own patients' data",
    probe: () => post('audit/accessLog', {}),
  },
  auditAccessLogExport: {
    callers: ['clinic'],
    note: "the administrators export their own organization's log",
    probe: () => post('audit/accessLog/export', {}),
  },
  appLaunch: { callers: ANY, note: 'opens an app for the caller themselves, at its registered address' },
  appInteraction: { callers: ANY, note: 'an authorization request the caller was sent to answer for themselves' },
  appConsent: { callers: ANY, note: 'the caller authorizes an app for themselves' },
  appDeny: { callers: ANY, note: 'the caller refuses an app for themselves' },
};

/**
 * What of pair A and pair B only some organizations may ever see, with who may: a stranger's answer holding any
 * of it is a leak, whatever the call.
 */
export function privateMarkers(w: World): Array<{ text: string; what: string; visibleTo: Org[] }> {
  return w.pairs.flatMap((p, i) => {
    const name = i === 0 ? 'A' : 'B';
    const sides = [p.clinic, p.lab];
    return [
      { text: p.orderCode, what: `order of pair ${name}`, visibleTo: sides },
      { text: p.orderedCase, what: `ordered case of pair ${name}`, visibleTo: sides },
      { text: p.attachmentCode, what: `attachment of pair ${name}`, visibleTo: sides },
      { text: p.messageText, what: `message of pair ${name}`, visibleTo: sides },
      { text: p.annotationCode, what: `annotation of pair ${name}`, visibleTo: sides },
      { text: p.annotationText, what: `annotation text of pair ${name}`, visibleTo: sides },
      ...p.orderedFiles.map((f) => ({ text: f, what: `file of an ordered case of pair ${name}`, visibleTo: sides })),
      { text: p.ownCase, what: `case of clinic ${name}`, visibleTo: [p.clinic] },
      ...p.ownFiles.map((f) => ({ text: f, what: `file of clinic ${name}`, visibleTo: [p.clinic] })),
      { text: p.exportCode, what: `export of clinic ${name}`, visibleTo: [p.clinic] },
      { text: p.shareCode, what: `share link of clinic ${name}`, visibleTo: [p.clinic] },
      { text: p.dentistName, what: `dentist of clinic ${name}`, visibleTo: [p.clinic] },
      // The laboratory sees a patient's name only when the clinic shares it (the world's order does not).
      ...p.patientNames.map((n) => ({ text: n, what: `patient of clinic ${name}`, visibleTo: [p.clinic] })),
      { text: p.boundSerial, what: `scanner of clinic ${name}`, visibleTo: [p.clinic, p.dealer, p.oem, w.inner] },
      { text: p.dealerSerial, what: `scanner of dealer ${name}`, visibleTo: [p.dealer, p.oem, w.inner] },
      { text: p.freshSerial, what: `scanner of OEM ${name}`, visibleTo: [p.oem, w.inner] },
      { text: p.deviceToken, what: `device token of clinic ${name}`, visibleTo: [] },
      { text: p.invitationToken, what: `invitation of clinic ${name}`, visibleTo: [w.inner] },
    ];
  });
}
