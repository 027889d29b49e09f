import { randomBytes } from 'node:crypto';
import { OrgType } from '@portal/contracts';
import { side } from './fixtures.js';
import { PNG, tusUpload } from './uploads.js';
import { CROWN, multipart, type Kind, type Org, type World } from './world.js';

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
const post = (path: string, body?: unknown): MatrixRequest => ({ path, body });

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

export const ISOLATION_MATRIX: Record<string, MatrixEntry> = {
  commonMonitor: { callers: 'public' },
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
  companyListByPage: { callers: ['inner'], probe: () => post('company/listByPage', { pageSize: 100 }) },
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

  caseList: { callers: PRIVATE, probe: () => post('case/list', { pageSize: 100 }) },
  caseDetail: {
    callers: PRIVATE,
    resource: (w) => ({ owners: [a(w).clinic], request: post('case/detail', { caseCode: a(w).ownCase }) }),
  },
  caseCreate: { callers: PRIVATE },
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
  orderSaveRequiredFields: { callers: ['lab'], note: "a laboratory's own rules" },
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
      ...p.orderedFiles.map((f) => ({ text: f, what: `file of an ordered case of pair ${name}`, visibleTo: sides })),
      { text: p.ownCase, what: `case of clinic ${name}`, visibleTo: [p.clinic] },
      ...p.ownFiles.map((f) => ({ text: f, what: `file of clinic ${name}`, visibleTo: [p.clinic] })),
      { text: p.exportCode, what: `export of clinic ${name}`, visibleTo: [p.clinic] },
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
