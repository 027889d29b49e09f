import { randomBytes } from 'node:crypto';
import { AGREEMENT_TYPES, OrgType, ReviewStatus, UserStatus } from '@portal/contracts';
import { hashPassword, newCode } from '../src/platform/crypto.js';
import { UsersService } from '../src/modules/users/users.service.js';
import { agreementsRepository } from '../src/modules/agreements/agreements.repository.js';
import { createUser, linkFromOutbox, login, PASSWORD, type CallOptions, type Harness } from './harness.js';
import { CROWN, newCase, partner, side, type Side } from './fixtures.js';
import { binaryStl, PNG, tusUpload } from './uploads.js';

/**
 * A populated portal for the generated gates: the super administrator and two organizations of every other type,
 * each with what its type owns (cases with files, orders with attachments and messages, exports, dentists,
 * scanners from the catalogue through the dealer to the clinic, partnerships, invitations, signed links), made
 * through the API the way users make them.
 */

export type Kind = 'inner' | 'clinic' | 'lab' | 'dealer' | 'oem';
export const KINDS: readonly Kind[] = ['inner', 'clinic', 'lab', 'dealer', 'oem'];
export const ORG_TYPE: Record<Kind, number> = {
  inner: OrgType.Inner,
  clinic: OrgType.Clinic,
  lab: OrgType.Lab,
  dealer: OrgType.Dealer,
  oem: OrgType.Oem,
};

export interface Org extends Side {
  kind: Kind;
  /** 'clinic A', 'lab B', 'inner' */
  label: string;
  userCode: string;
  invitationCode: string;
}

/** What one pair of a clinic and its partner laboratory (with their dealer and OEM) owns. */
export interface Pair {
  clinic: Org;
  lab: Org;
  dealer: Org;
  oem: Org;
  partnerCode: string;
  /** A case sent to the laboratory, and its order. */
  orderedCase: string;
  orderCode: string;
  /** A case only the clinic has. */
  ownCase: string;
  /** Patient names: the ordered case's (the clinic did not share it with the laboratory) and the own case's. */
  patientNames: string[];
  /** Files of the ordered case (a model and a picture) and of the own case. */
  orderedFiles: string[];
  ownFiles: string[];
  attachmentCode: string;
  messageText: string;
  /** An annotation the clinic pinned to the ordered case's model (the laboratory reads it through the order), its text. */
  annotationCode: string;
  annotationText: string;
  exportCode: string;
  /** A share link of the ordered case, made by the clinic (no password). */
  shareCode: string;
  /** A published report on the ordered case showing its picture, and its share link. */
  reportCode: string;
  reportShareCode: string;
  dentistId: number;
  dentistName: string;
  /** Serial numbers: bound to the clinic (through the dealer), with the dealer only, still with the OEM. */
  boundSerial: string;
  dealerSerial: string;
  freshSerial: string;
  activationCodes: Record<string, string>;
  deviceToken: string;
  notificationIds: number[];
  /** A laboratory invited by email, and the invitation's token. */
  invitedEmail: string;
  invitationToken: string;
  /** Signed links (path and query) of the pair's own resources. */
  links: {
    fileDownload: string;
    fileViewer: string;
    exportDownload: string;
    attachment: string;
    shareFile: string;
    shareViewer: string;
    shareReportImage: string;
    shareReportPdf: string;
  };
}

export interface World {
  h: Harness;
  base: string;
  inner: Org;
  pairs: [Pair, Pair];
  orgs: Org[];
  /** A laboratory waiting for review (the super administrator decides it). */
  pendingLabCode: string;
  captchaId: string;
}

/** A closed loop of points around a preparation (millimetres of a model's viewer version). */
export const MARGIN_LOOP: Array<[number, number, number]> = [
  [0, 0, 0],
  [4, 0, 0.5],
  [4, 4, 1],
  [0, 4, 0.5],
];

let serials = 0;
const serial = () => `SN-${(++serials).toString().padStart(4, '0')}-${randomBytes(3).toString('hex').toUpperCase()}`;

async function org(h: Harness, kind: Kind, label: string): Promise<Org> {
  const s = await side(h, ORG_TYPE[kind]);
  const [row] = await h.db.query<{ user_code: string; invitation_code: string }>(
    `SELECT u.user_code, o.invitation_code FROM users u JOIN organizations o ON o.id = u.organization_id WHERE u.id = $1`,
    [s.userId],
  );
  return { ...s, kind, label, userCode: row!.user_code, invitationCode: row!.invitation_code };
}

async function ok(h: Harness, path: string, opts: CallOptions) {
  const res = await h.call(path, opts);
  if (res.code !== 200) throw new Error(`world: ${path} answered ${res.code} ${res.msg}`);
  return res.data;
}

/** A multipart body built by hand, so that a test can send anything a client could (bytes that are not UTF-8). */
export function multipart(
  parts: Array<
    { name: string | Buffer; value: string | Buffer } | { name: string; filename: string | Buffer; bytes: Buffer }
  >,
) {
  const boundary = `----gate${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  const text = (s: string | Buffer) => (typeof s === 'string' ? Buffer.from(s) : s);
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="`), text(part.name));
    if ('filename' in part) {
      chunks.push(Buffer.from('"; filename="'), text(part.filename));
      chunks.push(Buffer.from('"\r\nContent-Type: application/octet-stream\r\n\r\n'), part.bytes, Buffer.from('\r\n'));
    } else chunks.push(Buffer.from('"\r\n\r\n'), text(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Sends a request through the harness' app without the harness' envelope checks (multipart, raw payloads). */
export async function inject(
  h: Harness,
  req: { method?: 'GET' | 'POST'; url: string; token?: string; payload?: string | Buffer; contentType?: string },
) {
  const headers: Record<string, string> = {};
  if (req.token) headers.authorization = `Bearer ${req.token}`;
  if (req.contentType) headers['content-type'] = req.contentType;
  return h.app.inject({ method: req.method ?? 'POST', url: req.url, headers, payload: req.payload });
}

/** A signed link's path and query, relative to /api/v2. */
const linkPath = (url: string) => {
  const u = new URL(url);
  return `${u.pathname.replace(/^\/api\/v2\//, '')}${u.search}`;
};

async function buildPair(h: Harness, base: string, letter: 'A' | 'B'): Promise<Pair> {
  const clinic = await org(h, 'clinic', `clinic ${letter}`);
  const lab = await org(h, 'lab', `lab ${letter}`);
  const dealer = await org(h, 'dealer', `dealer ${letter}`);
  const oem = await org(h, 'oem', `oem ${letter}`);
  const partnerCode = await partner(h, clinic, lab);

  const patientNames = [
    `Ordered ${letter} ${randomBytes(4).toString('hex')}`,
    `Own ${letter} ${randomBytes(4).toString('hex')}`,
  ];
  const orderedCase = await newCase(h, clinic, `Crown ${letter}`, patientNames[0]);
  const ownCase = await newCase(h, clinic, `Study ${letter}`, patientNames[1]);
  await tusUpload(base, clinic.token, binaryStl(200, letter === 'A' ? 1 : 2), {
    caseCode: orderedCase,
    filename: 'upper.stl',
  });
  await tusUpload(base, clinic.token, PNG, { caseCode: orderedCase, filename: 'photo.png' });
  await tusUpload(base, clinic.token, PNG, { caseCode: ownCase, filename: 'own.png' });
  const filesOf = async (caseCode: string) =>
    (
      (await ok(h, 'case/detail', { token: clinic.token, body: { caseCode } })).files as Array<{
        fileCode: string;
        format: string;
      }>
    )
      .sort((a, b) => Number(b.format === 'stl') - Number(a.format === 'stl'))
      .map((f) => f.fileCode);
  const orderedFiles = await filesOf(orderedCase);
  const ownFiles = await filesOf(ownCase);

  // The clinic keeps the patient's name from the laboratory, so the gates can see that it stays kept.
  const ordered = await ok(h, 'order/create', {
    token: clinic.token,
    body: {
      caseCodes: [orderedCase],
      partnerCode,
      orderType: 'restoration',
      workTypes: ['Crown'],
      teeth: [CROWN],
      sharePatientName: false,
    },
  });
  const orderCode = (ordered.list as Array<{ orderCode: string }>)[0]!.orderCode;
  const attached = await inject(h, {
    url: '/api/v2/order/save_attachments',
    token: clinic.token,
    ...(({ payload, contentType }) => ({ payload, contentType }))(
      multipart([
        { name: 'orderCode', value: orderCode },
        { name: 'file', filename: 'note.png', bytes: PNG },
      ]),
    ),
  });
  const attachmentCode = attached.json<{ data: { list: Array<{ code: string }> } }>().data.list[0]!.code;
  const messageText = `Message ${letter} ${randomBytes(4).toString('hex')}`;
  await ok(h, 'msg/send', { token: lab.token, body: { orderCode, content: messageText } });
  const annotationText = `Annotation ${letter} ${randomBytes(4).toString('hex')}`;
  const annotationCode = (
    await ok(h, 'case/annotation/add', {
      token: clinic.token,
      body: { caseCode: orderedCase, fileCode: orderedFiles[0], point: [1.5, -2.25, 3], text: annotationText },
    })
  ).annotationCode as string;
  // The laboratory draws the margin line of the order's prepared tooth.
  await ok(h, 'order/marginLine/save', {
    token: lab.token,
    body: { orderCode, tooth: CROWN.number, fileCode: orderedFiles[0], points: MARGIN_LOOP },
  });
  const notifications = await h.db.query<{ id: number }>(
    `SELECT id FROM notifications WHERE user_id IN ($1, $2) ORDER BY id`,
    [clinic.userId, lab.userId],
  );

  const exportCode = (
    await ok(h, 'export/create', { token: clinic.token, body: { caseCodes: [ownCase], types: ['png'] } })
  ).exportCode as string;
  const dentistName = `Dr ${letter} ${randomBytes(3).toString('hex')}`;
  const dentistId = (await ok(h, 'dentist/save', { token: clinic.token, body: { name: dentistName } })).id as number;
  await ok(h, 'order/saveRequiredFields', {
    token: lab.token,
    body: { rules: [{ workType: 'Inlay', fields: ['shade'] }] },
  });

  // Scanners: the OEM's catalogue, the dealer that sells two of them, the clinic that binds one.
  const [boundSerial, dealerSerial, freshSerial] = [serial(), serial(), serial()];
  const activationCodes = Object.fromEntries(
    [boundSerial, dealerSerial, freshSerial].map((s) => [s, `act-${randomBytes(4).toString('hex')}`]),
  );
  const csv = `model,serialNumber,activationCode,limitType\n${Object.entries(activationCodes)
    .map(([s, code]) => `Scanner ${letter},${s},${code},1`)
    .join('\n')}\n`;
  const imported = await inject(h, {
    url: '/api/v2/equipment/import_product_catalog',
    token: oem.token,
    ...(({ payload, contentType }) => ({ payload, contentType }))(
      multipart([{ name: 'file', filename: 'catalogue.csv', bytes: Buffer.from(csv) }]),
    ),
  });
  if (imported.json<{ data: { imported: number } }>().data.imported !== 3)
    throw new Error(`world: catalogue import ${imported.body}`);
  await ok(h, 'equipment/assignDealer', {
    token: oem.token,
    body: { serialNumbers: [boundSerial, dealerSerial], dealerCode: dealer.code },
  });
  await ok(h, 'equipment/activate', {
    token: clinic.token,
    body: { serialNumber: boundSerial, activationCode: activationCodes[boundSerial] },
  });
  await ok(h, 'equipment/saveDesignatedLabs', {
    token: clinic.token,
    body: { serialNumber: boundSerial, labCodes: [lab.code] },
  });
  await ok(h, 'equipment/saveCertifiedLabs', { token: oem.token, body: { labCodes: [lab.code] } });
  const deviceToken = (
    await ok(h, 'device/activate', {
      body: { serialNumber: boundSerial, activationCode: activationCodes[boundSerial] },
    })
  ).deviceToken as string;

  const invitedEmail = `invited-${letter.toLowerCase()}-${randomBytes(3).toString('hex')}@example.test`;
  await ok(h, 'partner/inviteLab', { token: clinic.token, body: { email: invitedEmail } });
  const invitationToken = await linkFromOutbox(h.db, invitedEmail, 'invitation=');

  // Jobs the setup queued (the model's viewer version, the export) run now, so the gates start from a still state.
  await h.app.platform.jobs.drain();
  const grant = await ok(h, 'file/downloadGrant', { token: clinic.token, body: { fileCode: orderedFiles[0] } });
  const exported = await ok(h, 'export/status', { token: clinic.token, body: { exportCode } });
  const attachmentLink = await ok(h, 'order/attachmentLink', { token: clinic.token, body: { attachmentCode } });
  const shareCode = (
    await ok(h, 'share/create', {
      token: clinic.token,
      body: { resourceType: 'case', resourceCode: orderedCase, expiresInDays: 30 },
    })
  ).shareCode as string;
  const shared = (await ok(h, 'share/open', { body: { code: shareCode } })).files as Array<{
    fileCode: string;
    url: string;
    viewerUrl: string | null;
  }>;
  const sharedModel = shared.find((f) => f.fileCode === orderedFiles[0])!;
  const reportCode = (await ok(h, 'report/create', { token: clinic.token, body: { caseCode: orderedCase } }))
    .reportCode as string;
  await ok(h, 'report/save', {
    token: clinic.token,
    body: {
      reportCode,
      content: { language: 'en', summary: `Report ${letter}`, images: [{ source: 'file', code: orderedFiles[1] }] },
    },
  });
  await ok(h, 'report/publish', { token: clinic.token, body: { reportCode } });
  const reportShareCode = (
    await ok(h, 'share/create', {
      token: clinic.token,
      body: { resourceType: 'report', resourceCode: reportCode, expiresInDays: 30 },
    })
  ).shareCode as string;
  const sharedReport = (await ok(h, 'share/open', { body: { code: reportShareCode } })).report as {
    images: Array<{ url: string }>;
    pdfUrl: string;
  };
  return {
    clinic,
    lab,
    dealer,
    oem,
    partnerCode,
    orderedCase,
    orderCode,
    ownCase,
    patientNames,
    orderedFiles,
    ownFiles,
    attachmentCode,
    messageText,
    annotationCode,
    annotationText,
    exportCode,
    shareCode,
    reportCode,
    reportShareCode,
    dentistId,
    dentistName,
    boundSerial,
    dealerSerial,
    freshSerial,
    activationCodes,
    deviceToken,
    notificationIds: notifications.map((n) => Number(n.id)),
    invitedEmail,
    invitationToken,
    links: {
      fileDownload: linkPath(grant.url),
      fileViewer: linkPath(grant.viewerUrl),
      exportDownload: linkPath(exported.downloadUrl),
      attachment: linkPath(attachmentLink.url),
      shareFile: linkPath(sharedModel.url),
      shareViewer: linkPath(sharedModel.viewerUrl!),
      shareReportImage: linkPath(sharedReport.images[0]!.url),
      shareReportPdf: linkPath(sharedReport.pdfUrl),
    },
  };
}

export async function buildWorld(h: Harness): Promise<World> {
  const base = await h.listen();
  const inner = await org(h, 'inner', 'inner');
  // The super administrator's sensitive calls (laboratory review, password reset) need a recent identity check.
  await ok(h, 'user/checkIdentity', { token: inner.token, body: { password: PASSWORD } });
  const pairs: [Pair, Pair] = [await buildPair(h, base, 'A'), await buildPair(h, base, 'B')];
  const pending = await createUser(h.db, { orgType: OrgType.Lab, reviewStatus: ReviewStatus.Pending });
  const [pendingOrg] = await h.db.query<{ code: string }>('SELECT code FROM organizations WHERE id = $1', [
    pending.organizationId,
  ]);
  const captchaId = (await ok(h, 'common/captcha/init', { method: 'GET' })).captchaId as string;
  await h.app.platform.jobs.drain();
  const orgs = [inner, ...pairs.flatMap((p) => [p.clinic, p.lab, p.dealer, p.oem])];
  // Every administrator's sensitive calls (disabling users, password resets) need a recent identity check.
  for (const o of orgs) await ok(h, 'user/checkIdentity', { token: o.token, body: { password: PASSWORD } });
  return { h, base, inner, pairs, orgs, pendingLabCode: pendingOrg!.code, captchaId };
}

/** A user with its own session. */
export interface Member {
  org: Org;
  account: string;
  email: string;
  userCode: string;
  password: string;
  token: string;
  refreshToken: string;
}

/** Another administrator of an organization, signed in: a caller a test may lock out or sign out. */
export async function addMember(h: Harness, o: Org): Promise<Member> {
  const account = `member${randomBytes(5).toString('hex')}`;
  const email = `${account}@example.test`;
  const userCode = newCode('u');
  const [role] = await h.db.query<{ role_id: number }>('SELECT role_id FROM users WHERE id = $1', [o.userId]);
  const userId = await UsersService.insert(h.db, {
    userCode,
    account,
    email,
    phone: null,
    displayName: `Member ${account}`,
    organizationId: o.organizationId,
    roleId: Number(role!.role_id),
    status: UserStatus.Activated,
    isOrgAdmin: true,
    language: 'en',
    passwordHash: await hashPassword(PASSWORD),
  });
  await agreementsRepository.markRead(h.db, userId, [...AGREEMENT_TYPES]);
  const tokens = await login(h, account);
  return {
    org: o,
    account,
    email,
    userCode,
    password: PASSWORD,
    token: tokens.accessToken,
    refreshToken: tokens.refreshToken,
  };
}

export { CROWN };
