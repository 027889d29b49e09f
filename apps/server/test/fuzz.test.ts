import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { assertDocumented, createHarness, createUser, linkFromOutbox, PASSWORD, type Harness } from './harness.js';
import { readOperations, type Operation } from './api-operations.js';
import {
  CONTROL_TEXT,
  fieldName,
  HOSTILE_KINDS,
  hostileValues,
  IMPOSSIBLE_DATES,
  targetsOf,
  validArbitrary,
  withValue,
  type Pools,
} from './schema-arbitraries.js';
import { privateMarkers } from './isolation-matrix.js';
import { StateWatch } from './state.js';
import { PNG } from './uploads.js';
import {
  addMember,
  buildWorld,
  CROWN,
  KINDS,
  MARGIN_LOOP,
  multipart,
  type Kind,
  type Member,
  type Org,
  type World,
} from './world.js';

/**
 * The schema fuzz: every operation of the served API document gets requests generated from its schema, valid ones
 * (with real identifiers of a populated portal) and hostile ones (each field with each class that broke the server
 * before), signed in as each organization type. Gates: no answer is a server error or one the document does not
 * list; a field the schema refuses is answered 400 naming it; a refused request changes nothing (tables and files).
 *
 * FUZZ_SEED picks the generated requests (a failure prints it with the request); FUZZ_RUNS is the number of valid
 * requests per call (CI's default is small; raise it for a longer run: the hostile values per field grow with it).
 * FUZZ_VERBOSE=1 prints each call's figures, FUZZ_TRACE=1 every request as it is sent.
 */
const SEED = Number(process.env.FUZZ_SEED || 20261123);
const RUNS = Number(process.env.FUZZ_RUNS || 16);
/** Each field gets one value of each hostile class per 16 valid requests. */
const HOSTILE_ROUNDS = Math.max(1, Math.round(RUNS / 16));

/**
 * Calls that end sessions, change passwords, spend credentials or remove what other calls work on. They are
 * fuzzed like every other call, but by an extra member of each organization (signed in again, or replaced, when a
 * call ends its session), or after the others.
 */
const SPECIAL: Record<
  string,
  {
    reason: string;
    byMember?: true;
    last?: true;
    runs?: number;
    /** Values of its own for some fields, instead of the shared pools. */
    values?: () => Record<string, unknown[]>;
  }
> = {
  userLogout: { reason: 'ends the session it is called with', byMember: true, runs: 6 },
  userChangePass: {
    reason: 'changes the password and ends the other sessions; a wrong current password counts toward the lockout',
    byMember: true,
  },
  userForceChangePass: { reason: 'changes the password', byMember: true },
  userCheckIdentity: { reason: 'a wrong password counts toward the lockout', byMember: true },
  userFreeLoginSign: { reason: 'a sign belongs to the session that asked for it', byMember: true, runs: 6 },
  userResetPass: {
    reason: "ends the target user's sessions and sets a temporary password (the targets are the members)",
    byMember: true,
  },
  partnerCancel: { reason: 'ends partnerships the order calls use', last: true },
  partnerReject: { reason: 'ends partnerships the order calls use', last: true },
  partnerTerminate: { reason: 'ends partnerships the order calls use', last: true },
  caseDelete: { reason: 'removes cases other calls use', last: true },
  casePurge: { reason: 'removes cases other calls use', last: true },
  caseErase: { reason: 'erases the cases other calls use, and their files, reports and shares', last: true },
  caseRecycleBinEmpty: { reason: 'removes cases other calls use', last: true },
  fileDelete: { reason: 'removes files other calls use', last: true },
  dentistDelete: { reason: 'removes dentists other calls use', last: true },
  userDisable: { reason: 'disables the users it names, the members other calls are made by among them', last: true },
  userDelByIds: { reason: 'deletes the users it names, the members other calls are made by among them', last: true },
  companyDisable: {
    reason: 'disables the organizations it names: organizations of its own, made for it',
    values: () => ({ organizationCodes: spareOrganizations, organizationCode: spareOrganizations }),
  },
  companyEditCompany: { reason: 'renames the organizations and changes their addresses', last: true },
  companyCloseAccount: {
    reason: 'closes the organization it is called by and signs all its users out: the confirmation never matches',
    values: () => ({ confirmName: ['Not the organization name', 'Org'] }),
  },
  companyContactDelete: { reason: 'removes contacts other calls use', last: true },
  userAuthAppRevoke: { reason: 'revokes authorizations other calls use', last: true },
  userEditUsername: { reason: "renames the caller's account, which is possible once", last: true },
  userSaveOrUpdate: { reason: "changes users' accounts, addresses and roles, the members' among them", last: true },
  userRoleDelByIds: { reason: 'removes roles other calls use', last: true },
  userRoleSetDefault: { reason: 'changes the role registrations get', last: true },
  catalogueDeleteProduct: { reason: 'removes products other calls use', last: true },
  shareRevoke: { reason: 'ends the share links the public share calls use', last: true },
  caseAnnotationDelete: { reason: 'removes the annotations the annotation calls use', last: true },
  webhookDelete: { reason: 'removes the endpoints the webhook calls use', last: true },
  appSuspend: { reason: 'suspends the registered apps the app calls use', last: true },
  // Calls that send mail need nothing special: without SMTP_URL mail is only written to the outbox table.
};

/** Fields whose names look like identifiers but hold free text (they need no real values). */
const FREE_FIELDS = new Set(['licenseCode', 'postalCode', 'captchaCode', 'patientId']);
const IDENTIFIER = /(Code|Codes|Id|Ids|^ids?|serialNumbers?|[tT]oken|^sign|^sig|^exp)$/;

/** A valid file for each multipart call (the test fails when a new multipart call has none). */
let catalogueRows = 0;
const FILE_SAMPLES: Record<string, () => { filename: string; bytes: Buffer }> = {
  orderSaveAttachments: () => ({ filename: 'photo.png', bytes: PNG }),
  chatAttachments: () => ({ filename: 'photo.png', bytes: PNG }),
  companyUploadImage: () => ({ filename: 'logo.png', bytes: PNG }),
  userEditAvatar: () => ({ filename: 'avatar.png', bytes: PNG }),
  reportSnapshot: () => ({ filename: 'upper.png', bytes: PNG }),
  equipmentImportProductCatalog: () => {
    catalogueRows += 1;
    const serial = `FZ-${catalogueRows}-${randomBytes(3).toString('hex').toUpperCase()}`;
    return {
      filename: 'catalogue.csv',
      bytes: Buffer.from(`model,serialNumber,activationCode\nFuzz,${serial},code-${serial}\n`),
    };
  },
};

type Caller = { kind: 'none' } | { kind: 'device'; token: string } | { kind: Kind; member?: Kind };
const isOrgCaller = (c: Caller): c is { kind: Kind; member?: Kind } => c.kind !== 'none' && c.kind !== 'device';

interface FuzzRequest {
  label: string;
  caller: Caller;
  /** A JSON body, or a raw payload with its content type. */
  body?: unknown;
  raw?: { payload: string | Buffer; contentType?: string };
  /** Path parameters and query pairs, already percent-encoded. */
  params?: Record<string, string>;
  query?: Array<[string, string]>;
  /** The schema refuses it: 400 naming this field. */
  refusesField?: string;
  /** Refused (any 4xx). */
  refused?: boolean;
}

let h: Harness;
let w: World;
let watch: StateWatch;
let operations: Operation[];
const members = new Map<Kind, Member>();
const mains = new Map<Kind, Org>();
const stats = { calls: 0, requests: 0, valid: 0, hostile: 0, validSignedIn: 0, passedValidation: 0, ok: 0 };

beforeAll(async () => {
  // Signing members in again is not what the fuzz is about: the harness' own address gets no sign-in limit.
  h = await createHarness({ LOGIN_RATE_LIMIT_PER_MINUTE: '10000' });
  watch = new StateWatch(h);
  w = await buildWorld(h);
  operations = await readOperations(h);
  mains.set('inner', w.inner);
  for (const kind of KINDS.filter((k) => k !== 'inner')) mains.set(kind, w.pairs[0][kind as 'clinic']);
  for (const [kind, o] of mains) {
    members.set(kind, await addMember(h, o));
    // Sensitive calls (password reset, laboratory review) need a recent identity check.
    await h.call('user/checkIdentity', { token: o.token, body: { password: PASSWORD } });
  }
  // A role of each organization's own, so the role calls have real ones to use.
  for (const o of mains.values()) {
    const made = await h.call('user/role/save_or_update', { token: o.token, body: { name: `Fuzz role ${o.label}` } });
    if (made.code === 200) customRoles.push(made.data.roleCode);
  }
  for (let i = 0; i < 2; i++) {
    const spare = await createUser(h.db, { orgType: OrgType.Clinic });
    const [org] = await h.db.query<{ code: string }>('SELECT code FROM organizations WHERE id = $1', [
      spare.organizationId,
    ]);
    spareOrganizations.push(org!.code);
  }
  // A product in each laboratory's catalogue, so the catalogue and order calls have real ones to use.
  for (const pair of w.pairs) {
    const made = await h.call('catalogue/saveProduct', {
      token: pair.lab.token,
      body: { name: `Fuzz crown ${pair.lab.label}`, workType: 'Crown', materials: ['Zirconia'], turnaroundDays: 3 },
    });
    productCodes.push(made.data.productCode);
  }
  // Each pair's chat conversation (made when a side first lists its conversations) and the support one.
  for (const pair of w.pairs) {
    const listed = await h.call('chat/conversations', { token: pair.clinic.token });
    conversationCodes.push(...listed.data.list.map((c: { code: string }) => c.code));
  }
  // Contacts of both clinics (one link each for the verification call) and an authorized app of each member.
  for (const p of w.pairs) {
    const email = `contact-${randomBytes(3).toString('hex')}@example.test`;
    const made = await h.call('companyContact/add', { token: p.clinic.token, body: { userName: 'Desk', email } });
    contactCodes.push(made.data.contactCode);
    verifyCodes.push(await linkFromOutbox(h.db, email, '/contact-email-verify/'));
  }
  for (const m of members.values()) {
    const appCode = `app${randomBytes(4).toString('hex')}`;
    await h.db.query(
      `INSERT INTO authorized_apps (app_code, user_id, app_name) SELECT $1, id, 'Fuzz app' FROM users WHERE user_code = $2`,
      [appCode, m.userCode],
    );
    appCodes.push(appCode);
  }
  // Registered apps (the super administrator's register), so the app calls have real ones to use.
  for (const confidential of [true, false]) {
    const made = await h.call('app/create', {
      token: w.inner.token,
      body: {
        name: `Fuzz app ${confidential ? 'server' : 'browser'}`,
        redirectUris: ['https://app.example.test/callback'],
        scopes: ['openid', 'cases:read'],
        contactEmail: 'dev@example.test',
        confidential,
        launchUrl: 'https://app.example.test/start',
      },
    });
    appCodes.push(made.data.appCode);
  }
  // And one waiting for its developer, whose mailed activation link the sign pool carries.
  const pending = await h.call('app/create', {
    token: w.inner.token,
    body: {
      name: 'Fuzz app pending',
      redirectUris: ['https://app.example.test/callback'],
      scopes: ['openid'],
      contactEmail: 'pending-dev@example.test',
      sendActivationLink: true,
    },
  });
  appCodes.push(pending.data.appCode);
  // A report with a snapshot on each clinic's own case, so the report calls have real ones to use.
  for (const pair of w.pairs) {
    const made = await h.call('report/create', { token: pair.clinic.token, body: { caseCode: pair.ownCase } });
    reportCodes.push(made.data.reportCode);
    const shot = await h.app.inject({
      method: 'POST',
      url: '/api/v2/report/snapshot',
      headers: {
        authorization: `Bearer ${pair.clinic.token}`,
        'content-type': snapshotForm(made.data.reportCode).contentType,
      },
      payload: snapshotForm(made.data.reportCode).payload,
    });
    snapshotCodes.push(shot.json<{ data: { code: string } }>().data.code);
  }
  // An erasure of a case made for it in each pair's clinic, so the certificate calls have real ones.
  for (const pair of w.pairs) {
    const made = await h.call('case/create', {
      token: pair.clinic.token,
      body: { name: 'Fuzz erased', patientName: 'Erased Patient' },
    });
    const erased = await h.call('case/erase', {
      token: pair.clinic.token,
      body: { caseCodes: [made.data.caseCode], reason: 'Fuzz request' },
    });
    erasureCodes.push(erased.data.erasureCode as string);
  }
  // A webhook endpoint of each pair's clinic and laboratory with a delivery, so the webhook calls have real ones.
  for (const pair of w.pairs) {
    for (const o of [pair.clinic, pair.lab]) {
      const made = await h.call('webhook/create', {
        token: o.token,
        body: { url: `https://hooks.example.com/${o.label}`, events: ['order.status', 'case.created'] },
      });
      const endpointCode = made.data.endpoint.endpointCode as string;
      endpointCodes.push(endpointCode);
      const code = `whd${randomBytes(4).toString('hex')}`;
      await h.db.query(
        `INSERT INTO webhook_deliveries (code, endpoint_id, message_id, event_type, payload, status, attempts)
         SELECT $1, id, $2, 'order.status', '{}', 'failed', 1 FROM webhook_endpoints WHERE code = $3`,
        [code, `msg_${code}`, endpointCode],
      );
      deliveryCodes.push(code);
    }
  }
  // A reset link of a member, so the reset calls have a real one to use.
  await h.call('user/forgetPass', { body: { account: members.get('clinic')!.account } });
}, 120_000);
afterAll(() => h?.close());

const reportCodes: string[] = [];
const snapshotCodes: string[] = [];
const snapshotFormCache = new Map<string, ReturnType<typeof multipart>>();
function snapshotForm(reportCode: string) {
  let form = snapshotFormCache.get(reportCode);
  if (!form) {
    form = multipart([
      { name: 'reportCode', value: reportCode },
      { name: 'view', value: 'upper' },
      { name: 'file', filename: 'upper.png', bytes: PNG },
    ]);
    snapshotFormCache.set(reportCode, form);
  }
  return form;
}

function pools(operationId?: string): Pools {
  const pairs = w.pairs;
  const orgs = w.orgs;
  const mem = [...members.values()];
  const values: Record<string, unknown[]> = {
    caseCode: pairs.flatMap((p) => [p.orderedCase, p.ownCase]),
    orderCode: pairs.map((p) => p.orderCode),
    partnerCode: pairs.map((p) => p.partnerCode),
    fileCode: pairs.flatMap((p) => [...p.orderedFiles, ...p.ownFiles]),
    attachmentCode: pairs.map((p) => p.attachmentCode),
    annotationCode: pairs.map((p) => p.annotationCode),
    // The teeth of the world's orders: a margin line names one of them.
    tooth: [CROWN.number],
    exportCode: pairs.map((p) => p.exportCode),
    shareCode: pairs.flatMap((p) => [p.shareCode, p.reportShareCode]),
    resourceCode: pairs.flatMap((p) => [p.orderedCase, p.ownCase, p.orderCode, p.reportCode]),
    // Pictures a report shows: the ordered case's picture (the world's published reports show it).
    imageCode: pairs.map((p) => p.orderedFiles[1]!),
    reportCode: reportCodes,
    snapshotCode: snapshotCodes,
    view: ['upper', 'lower', 'bite'],
    serialNumber: pairs.flatMap((p) => [p.boundSerial, p.dealerSerial, p.freshSerial]),
    activationCode: pairs.flatMap((p) => Object.values(p.activationCodes)),
    labCodes: pairs.map((p) => p.lab.code),
    dealerCode: pairs.map((p) => p.dealer.code),
    organizationCode: [...orgs.map((o) => o.code), w.pendingLabCode],
    invitationCode: orgs.map((o) => o.invitationCode),
    userCode: mem.map((m) => m.userCode),
    account: mem.map((m) => m.account),
    email: [...mem.map((m) => m.email), ...pairs.map((p) => p.invitedEmail)],
    password: [PASSWORD, 'Another#2027x'],
    refreshToken: mem.map((m) => m.refreshToken),
    dentistId: pairs.map((p) => p.dentistId),
    ids: pairs.flatMap((p) => p.notificationIds),
    token: pairs.map((p) => p.invitationToken),
    captchaId: [w.captchaId],
    keyword: pairs.flatMap((p) => [...p.patientNames, p.lab.code, 'Org']),
    orderType: ['restoration', 'implant'],
    agreementType: ['privacy', 'cookie', 'terms'],
    toothNumberingSystem: ['fdi', 'universal'],
    msgType: [2, 5],
    roleCode: ['clinic_admin', 'lab_admin', 'dealer_admin', 'oem_admin', ...customRoles],
    menuCodes: ['dashboard', 'cases', 'caseDetail', 'orders', 'orderDetail', 'orders.accept', 'ownSpace'],
    productCode: productCodes,
    timeZone: ['UTC', 'Europe/Copenhagen', 'America/New_York'],
    // Areas (migration 0025): real ones of the world's region and of the others.
    parentId: ['US', 'US-CA', 'GB', 'GB-ENG', 'FR'],
    countryId: ['US', 'CA', 'GB'],
    stateId: ['US-CA', 'CA-ON', 'GB-ENG'],
    cityId: ['US-CA-0001', 'CA-ON-0001', 'GB-KEN'],
    contactCode: contactCodes,
    verifyCode: verifyCodes,
    appCode: appCodes,
    conversationCode: conversationCodes,
    clientId: ['fuzz-client-0001', 'fuzz-client-0002'],
    endpointCode: endpointCodes,
    deliveryCode: deliveryCodes,
    erasureCode: erasureCodes,
    url: ['https://hooks.example.com/fuzz', 'https://10.0.0.1/hook', 'https://2130706433/', 'http://example.com/'],
  };
  values.roleCodes = values.roleCode!;
  values.userCodes = values.userCode!;
  values.organizationCodes = values.organizationCode!;
  values.caseCodes = values.caseCode!;
  values.orderCodes = values.orderCode!;
  values.attachmentCodes = values.attachmentCode!;
  values.serialNumbers = values.serialNumber!;
  values.oldPassword = values.password!;
  values.confirmPassword = values.password!;
  values.id = [...pairs.map((p) => p.dentistId), ...linkIds];
  values.sign = signs;
  // A call may draw some fields from values of its own (organizations it may disable without spoiling the world).
  const own = operationId ? SPECIAL[operationId]?.values?.() : undefined;
  return (field) => own?.[field] ?? values[field];
}
/** Organizations no other call uses, for the call that disables organizations. */
const spareOrganizations: string[] = [];
/** Calls that spoil the world for others run after them. */
const rank = (operationId: string) => (SPECIAL[operationId]?.last ? 1 : 0);
let linkIds: string[] = [];
const customRoles: string[] = [];
const productCodes: string[] = [];
const contactCodes: string[] = [];
const verifyCodes: string[] = [];
const appCodes: string[] = [];
const conversationCodes: string[] = [];
const endpointCodes: string[] = [];
const erasureCodes: string[] = [];
const deliveryCodes: string[] = [];
let signs: string[] = [];

/** What only pair B may see: its orders, cases, files, messages, exports, dentists, patients and tokens. */
const otherPairMarkers = () => privateMarkers(w).filter((m) => m.what.endsWith(' B') && !m.what.startsWith('scanner'));

/** Real links the mails carry (confirmation, reset) and one-time signs, read again before each call. */
async function refreshCredentials() {
  watch.forget();
  const mails = await h.db.query<{ body_text: string }>('SELECT body_text FROM mail_outbox ORDER BY id DESC LIMIT 50');
  linkIds = mails.flatMap((m) =>
    [...m.body_text.matchAll(/\/(?:email-verify|forget-pass)\/([A-Za-z0-9_-]+)/g)].map((x) => x[1]!),
  );
  const signed = await h.call('user/free-login/sign', { token: members.get('clinic')!.token });
  const activationSigns = mails.flatMap((m) =>
    [...m.body_text.matchAll(/\/activate-app\/([A-Za-z0-9_-]+)/g)].map((x) => x[1]!),
  );
  signs = [...(signed.code === 200 ? [signed.data.sign] : []), ...activationSigns];
}

const tokenOf = (caller: Caller): string | undefined => {
  if (caller.kind === 'none') return undefined;
  if (caller.kind === 'device') return caller.token;
  return caller.member ? members.get(caller.member)!.token : mains.get(caller.kind)!.token;
};

let address = 0;
/** Each request comes from its own loopback address, so the per-address limits do not hide the logic. */
const nextAddress = () => {
  address += 1;
  return `127.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255 || 1}`;
};

function urlOf(op: Operation, req: FuzzRequest) {
  let path = op.path;
  for (const p of op.parameters.filter((x) => x.in === 'path'))
    path = path.replace(`{${p.name}}`, req.params?.[p.name] ?? 'none');
  const query = (req.query ?? []).map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&');
  return `${path}${query ? `?${query}` : ''}`;
}

async function send(op: Operation, req: FuzzRequest) {
  if (process.env.FUZZ_TRACE) console.log(describeRequest(op, req).slice(0, 300));
  const headers: Record<string, string> = {};
  const token = tokenOf(req.caller);
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: string | Buffer | undefined;
  if (req.raw) {
    payload = req.raw.payload;
    if (req.raw.contentType) headers['content-type'] = req.raw.contentType;
  } else if (req.body !== undefined) {
    payload = JSON.stringify(req.body);
    headers['content-type'] = 'application/json';
  }
  const path = urlOf(op, req);
  // Multipart bodies go over the loopback, as a client sends them: how the parser meets a body cut short depends on
  // the timing of its chunks, and a socket's is what clients cause.
  const res =
    op.body?.contentType === 'multipart/form-data'
      ? await overHttp(`${w.base}/api/v2/${path}`, op.method, headers, payload)
      : await h.app.inject({
          method: op.method,
          url: `/api/v2/${path}`,
          headers,
          payload,
          remoteAddress: nextAddress(),
        });
  const json = String(res.headers['content-type'] ?? '').includes('json')
    ? (JSON.parse(res.body) as { code: number; msg: string; data: any })
    : undefined;
  return { path, status: res.statusCode, json, body: res.body };
}

/** A request over the loopback; an answer that does not come within 10 s is reported as HTTP 0. */
async function overHttp(url: string, method: string, headers: Record<string, string>, payload?: string | Buffer) {
  try {
    const res = await fetch(url, {
      method,
      headers,
      body: payload === undefined ? undefined : new Uint8Array(Buffer.from(payload)),
      signal: AbortSignal.timeout(10_000),
    });
    return {
      statusCode: res.status,
      headers: { 'content-type': res.headers.get('content-type') },
      body: await res.text(),
    };
  } catch (err) {
    return { statusCode: 0, headers: {}, body: `no answer: ${(err as Error).message}` };
  }
}

interface Failure {
  op: string;
  request: string;
  problem: string;
}
const failures: Failure[] = [];

async function check(op: Operation, req: FuzzRequest) {
  await watch.before();
  const res = await send(op, req);
  stats.requests += 1;
  const problems: string[] = [];
  const code = res.json?.code ?? (res.status === 200 ? 200 : res.status);
  if (res.status >= 500 || res.status === 0) problems.push(`server error ${res.status}: ${res.body.slice(0, 300)}`);
  try {
    if (res.json) assertDocumented(h.app, op.method, res.path, res.status, res.json.code);
    else if (!op.statuses.includes(res.status)) problems.push(`HTTP ${res.status}, which the document does not list`);
  } catch (err) {
    problems.push((err as Error).message);
  }
  const refusedAnswer = res.status >= 400 || code !== 200;
  if (req.refusesField !== undefined) {
    const data = res.json?.data as { field?: string; errors?: Array<{ field: string }> } | undefined;
    // A field or a part of it ('treatments.0' for treatments) is named.
    const names = (field: string | undefined) =>
      field === req.refusesField || field?.startsWith(`${req.refusesField}.`);
    const named = names(data?.field) || data?.errors?.some((e) => names(e.field));
    if (res.status !== 400 || code !== 400 || !named)
      problems.push(
        `expected 400 naming ${req.refusesField}, got HTTP ${res.status} ${code} ${res.body.slice(0, 200)}`,
      );
  } else if (req.refused && !refusedAnswer)
    problems.push(`expected a refusal, got ${res.status} ${res.body.slice(0, 200)}`);
  // Nothing of the other pair's organizations reaches pair A's (what the request itself named aside).
  if (isOrgCaller(req.caller) && !(op.operationId === 'mailListOutbox' && req.caller.kind === 'inner')) {
    const caller = mains.get(req.caller.kind)!;
    const sent = JSON.stringify([req.body, req.params, req.query, String(req.raw?.payload ?? '')]);
    for (const m of otherPairMarkers())
      if (!m.visibleTo.includes(caller) && res.body.includes(m.text) && !sent.includes(m.text))
        problems.push(`the answer holds the ${m.what}`);
  }
  if (code === 200) stats.ok += 1;
  if (req.label === 'valid' && res.status !== 401) {
    stats.validSignedIn += 1;
    // The schema's refusal is the one 400 that lists its problems.
    if (!(code === 400 && (res.json?.data as { errors?: unknown } | undefined)?.errors)) stats.passedValidation += 1;
  }

  // A refused request changes nothing.
  const changes = await watch.after();
  if (refusedAnswer && changes.length)
    problems.push(`refused (${res.status} ${code}) but changed: ${changes.slice(0, 6).join('; ')}`);
  for (const problem of problems) failures.push({ op: op.operationId, request: describeRequest(op, req), problem });
  return res;
}

function describeRequest(op: Operation, req: FuzzRequest) {
  const caller = req.caller.kind + (isOrgCaller(req.caller) && req.caller.member ? ' member' : '');
  const payload = req.raw
    ? `raw ${req.raw.contentType ?? ''} ${JSON.stringify(String(req.raw.payload).slice(0, 300))}`
    : JSON.stringify(req.body)?.slice(0, 400);
  return `FUZZ_SEED=${SEED} ${op.method} ${urlOf(op, req).slice(0, 200)} as ${caller} [${req.label}] ${payload ?? ''}`;
}

/** Who calls: each organization type in turn for session calls, the scanners for the device API, nobody else. */
function callerFor(op: Operation, i: number): Caller {
  if (op.security === 'public') return { kind: 'none' };
  if (op.security === 'device') return { kind: 'device', token: w.pairs[i % 2]!.deviceToken };
  const kind = KINDS[i % KINDS.length]!;
  return SPECIAL[op.operationId]?.byMember ? { kind, member: kind } : { kind };
}

const bodySchema = (op: Operation) => (op.body?.contentType === 'application/json' ? op.body.schema : undefined);

function seedOf(op: Operation) {
  let x = SEED;
  for (const c of op.operationId) x = (Math.imul(x, 31) + c.charCodeAt(0)) | 0;
  return x;
}

/** Valid bodies and parameters for a call, drawn from its schema with the seed of the call. */
function validInputs(op: Operation, count: number) {
  const p = pools(op.operationId);
  const schema = bodySchema(op);
  const params = Object.fromEntries(
    op.parameters.map((x) => [
      x.name,
      x.required
        ? validArbitrary(x.schema, p, x.name)
        : fc.option(validArbitrary(x.schema, p, x.name), { nil: undefined }),
    ]),
  );
  const arb = fc.record({
    body: schema ? validArbitrary(schema, p) : fc.constant(undefined),
    params: fc.record(params),
  });
  return fc.sample(arb, { seed: seedOf(op), numRuns: count }).map(({ body, params: values }) => {
    const req: FuzzRequest = { label: 'valid', caller: { kind: 'none' }, body, params: {}, query: [] };
    for (const x of op.parameters) {
      const v = values[x.name];
      if (v === undefined) continue;
      if (x.in === 'path') req.params![x.name] = encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v));
      else req.query!.push([x.name, encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))]);
    }
    return req;
  });
}

/**
 * Requests that succeed, for calls whose success needs values that belong together (a partner's case, a password
 * typed twice, a serial number with its activation code): the generated ones then exercise the paths around them.
 */
const EXAMPLES: Record<string, (w: World) => Array<{ caller: Kind; body: unknown }>> = {
  orderCreate: (world) => {
    const [a] = world.pairs;
    const order = { partnerCode: a.partnerCode, orderType: 'restoration', workTypes: ['Crown'], teeth: [CROWN] };
    return [{ caller: 'clinic', body: { ...order, caseCodes: [a.ownCase] } }];
  },
  caseAnnotationAdd: (world) => {
    const [a] = world.pairs;
    const note = { caseCode: a.orderedCase, fileCode: a.orderedFiles[0], point: [1, -2.5, 3], text: 'Fuzz note' };
    return [{ caller: 'clinic', body: note }];
  },
  orderMarginLineSave: (world) => {
    const [a] = world.pairs;
    const line = { orderCode: a.orderCode, tooth: CROWN.number, fileCode: a.orderedFiles[0], points: MARGIN_LOOP };
    return [
      { caller: 'clinic', body: line },
      { caller: 'lab', body: line },
    ];
  },
  userRegist: () => [{ caller: 'clinic', body: registration('regist') }],
  companyCompanyRegist: () => [
    {
      caller: 'lab',
      body: {
        ...registration('company'),
        orgType: 3,
        licenseCode: 'L-1',
        representativeName: 'R',
        country: 'NO',
        city: 'Oslo',
      },
    },
  ],
  deviceActivate: (world) => {
    const b = world.pairs[1];
    return [
      { caller: 'clinic', body: { serialNumber: b.boundSerial, activationCode: b.activationCodes[b.boundSerial] } },
    ];
  },
};
function registration(prefix: string) {
  const account = `${prefix}${randomBytes(4).toString('hex')}`;
  return {
    orgType: 2,
    region: 'us',
    organizationName: `Org ${account}`,
    account,
    email: `${account}@example.test`,
    displayName: account,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    agreePrivacy: true,
    agreeCookie: true,
    agreeTerms: true,
  };
}

/** Real signed links and the examples above. */
function realRequests(op: Operation): FuzzRequest[] {
  const examples = (EXAMPLES[op.operationId]?.(w) ?? []).map((e): FuzzRequest => ({
    label: 'valid',
    caller: op.security === 'public' ? { kind: 'none' } : { kind: e.caller },
    body: e.body,
    params: {},
    query: [],
  }));
  const links = w.pairs.flatMap((p) => Object.values(p.links));
  return [
    ...examples,
    ...links
      .filter((link) => new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/?]+')}\\?`).test(link))
      .map((link): FuzzRequest => {
        const [path, search] = link.split('?');
        // Path parameters by position: a link may carry several (a share's code and the file's).
        const segments = path!.split('/');
        const params: Record<string, string> = {};
        op.path.split('/').forEach((segment, i) => {
          const name = /^\{(.+)\}$/.exec(segment)?.[1];
          if (name) params[name] = segments[i]!;
        });
        return {
          label: 'valid',
          caller: { kind: 'none' },
          params,
          query: [...new URLSearchParams(search)].map(([k, v]) => [k, encodeURIComponent(v)] as [string, string]),
        };
      }),
  ];
}

/** Each field with each hostile class, on a valid request of the call. */
function hostileInputs(op: Operation, bases: FuzzRequest[]): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  const rnd = fc.sample(fc.integer({ min: 0, max: 1_000_000 }), { seed: seedOf(op) + 1, numRuns: 2000 });
  let r = 0;
  const pick = <T>(list: readonly T[]) => list[rnd[r++ % rnd.length]! % list.length]!;
  const schema = bodySchema(op);
  if (schema) {
    for (const target of targetsOf(schema)) {
      const values = hostileValues(target);
      for (const kind of HOSTILE_KINDS) {
        for (let round = 0; round < HOSTILE_ROUNDS && values[kind].length; round++) {
          const hostile = pick(values[kind]);
          const base = pick(bases);
          out.push({
            ...base,
            label: `${kind} in ${fieldName(target.path)}`,
            body: withValue(base.body ?? {}, target.path, hostile.value),
            refusesField: hostile.refused ? fieldName(target.path) : undefined,
          });
        }
      }
    }
  }
  for (const param of op.parameters) {
    const base = pick(bases);
    const set = (value: string, label: string, refusesField?: string, repeat = false): FuzzRequest => {
      if (param.in === 'path') return { ...base, label, params: { ...base.params, [param.name]: value }, refusesField };
      const query = (base.query ?? []).filter(([k]) => k !== param.name);
      return {
        ...base,
        label,
        query: [...query, [param.name, value], ...(repeat ? [[param.name, value] as [string, string]] : [])],
        refusesField,
      };
    };
    const s = param.schema;
    out.push(set(encodeURIComponent(pick(CONTROL_TEXT)), `control characters in ${param.name}`, param.name));
    // A lone surrogate cannot be written in UTF-8: its bytes as a client would send them.
    out.push(set('%ED%A0%80', `lone surrogates in ${param.name}`));
    out.push(set('%FF%FE', `bytes that are not UTF-8 in ${param.name}`));
    out.push(set(encodeURIComponent(pick(IMPOSSIBLE_DATES)), `impossible dates in ${param.name}`));
    if (s.maxLength !== undefined) out.push(set('x'.repeat(s.maxLength + 1), `over-long ${param.name}`, param.name));
    if (s.type === 'integer') {
      out.push(set('99999999999999999999', `huge numbers in ${param.name}`, param.name));
      out.push(set('abc', `wrong types in ${param.name}`, param.name));
    }
    if (param.in === 'query') {
      const valid = base.query?.find(([k]) => k === param.name)?.[1] ?? 'x';
      out.push(set(valid, `repeated ${param.name}`, param.name, true));
      if (param.required) {
        out.push({
          ...base,
          label: `missing ${param.name}`,
          query: (base.query ?? []).filter(([k]) => k !== param.name),
          refusesField: param.name,
        });
      }
    } else out.push(set('a%2Fb', `encoded slash in ${param.name}`));
  }
  if (op.method === 'POST' && op.body?.contentType !== 'multipart/form-data') {
    const base = pick(bases);
    // A call without a body schema ignores its body: only what no parser reads is refused there.
    const raw = (
      label: string,
      payload: string | Buffer,
      contentType = 'application/json',
      refused = Boolean(schema),
    ): FuzzRequest => ({
      ...base,
      body: undefined,
      label,
      raw: { payload, contentType },
      refused,
    });
    const valid = JSON.stringify(base.body ?? {});
    const requires = Boolean(schema?.required?.length);
    out.push(
      raw('malformed JSON', '{"unterminated": ', 'application/json', true),
      // Both are read (as an unknown field, as empty values): refused where the call requires a field.
      raw('nested past any stack', `{"a":${'['.repeat(50_000)}${']'.repeat(50_000)}}`, 'application/json', requires),
      raw('larger than the body limit', `{"a":"${'x'.repeat(300 * 1024)}"}`, 'application/json', true),
      raw('another content type', valid, 'text/plain'),
      raw('prototype keys', `{"__proto__":{"polluted":true},${valid.slice(1)}`),
      raw('form with a broken escape', 'a=%ZZ&b=%', 'application/x-www-form-urlencoded', requires),
      raw(
        'bytes that are not UTF-8',
        Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80]), Buffer.from('"}')]),
        'application/json',
        false,
      ),
    );
    if (schema) {
      out.push(
        raw('a key with a NUL', `{"a\\u0000b":1,${valid.slice(1)}`),
        raw('not an object', pick(['null', '[]', '"text"', '42', 'true'])),
        { ...base, label: 'an extra field', body: { ...(base.body as object), zzUnknown: 'x' } },
      );
      // Repeated fields: JSON keeps the last; a form body makes a list, which no field takes.
      const first = Object.entries((base.body ?? {}) as Record<string, unknown>).find(([, v]) => typeof v === 'string');
      if (first) {
        const [key, value] = first;
        out.push(
          raw(
            `repeated ${key}`,
            `{${JSON.stringify(key)}:${JSON.stringify(pick(CONTROL_TEXT))},${valid.slice(1)}`,
            'application/json',
            false,
          ),
        );
        out.push({
          ...raw(
            `repeated ${key} in a form`,
            `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}&${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`,
            'application/x-www-form-urlencoded',
          ),
          refusesField: key,
        });
      }
    }
  }
  return out;
}

/** Multipart calls: the document's fields and file part, valid and with every kind of broken part. */
function multipartInputs(op: Operation, count: number): { valid: FuzzRequest[]; hostile: FuzzRequest[] } {
  const sample = FILE_SAMPLES[op.operationId]!;
  const schema = op.body!.schema;
  const fileField = Object.entries(schema.properties ?? {}).find(
    ([, s]) => s.format === 'binary' || s.items?.format === 'binary',
  )![0];
  const fileSchema = schema.properties![fileField]!;
  const maxFiles = fileSchema.type === 'array' ? (fileSchema.maxItems ?? 1) : 1;
  const textFields = Object.entries(schema.properties ?? {}).filter(([name]) => name !== fileField);
  const p = pools(op.operationId);
  const fieldValues = fc.sample(
    fc.record(
      Object.fromEntries(textFields.map(([name, s]) => [name, validArbitrary({ ...s, maxLength: 64 }, p, name)])),
    ),
    { seed: seedOf(op), numRuns: count },
  ) as Array<Record<string, string>>;
  const build = (
    label: string,
    parts: Parameters<typeof multipart>[0],
    expect: { refusesField?: string; refused?: boolean } = {},
    contentType?: string,
  ): FuzzRequest => {
    const body = multipart(parts);
    return {
      label,
      caller: { kind: 'none' },
      raw: { payload: body.payload, contentType: contentType ?? body.contentType },
      ...expect,
    };
  };
  const fields = (values: Record<string, string>) =>
    textFields.map(([name]) => ({ name, value: String(values[name]) }));
  const file = (over: Partial<{ filename: string | Buffer; bytes: Buffer }> = {}) => ({
    name: fileField,
    ...sample(),
    ...over,
  });
  const valid = fieldValues.map((values, i) =>
    build('valid', [...fields(values), ...Array.from({ length: 1 + (i % Math.min(maxFiles, 3)) }, () => file())]),
  );
  const out: FuzzRequest[] = [];
  const v = fieldValues[0]!;
  const firstField = textFields[0]?.[0];
  out.push(
    build('an extra field', [{ name: 'zzUnknown', value: 'x' }, ...fields(v), file()], { refusesField: 'zzUnknown' }),
    build('a file under another name', [{ name: 'upload', filename: 'x.png', bytes: PNG }, ...fields(v)], {
      refusesField: 'upload',
    }),
    build(
      'more fields than the call has',
      [...fields(v), ...Array.from({ length: 8 }, (_, i) => ({ name: `f${i}`, value: 'x' })), file()],
      { refused: true },
    ),
    build('more files than allowed', [...fields(v), ...Array.from({ length: maxFiles + 1 }, () => file())], {
      refused: true,
    }),
    build('no file', fields(v), { refused: true }),
    build('an empty file', [...fields(v), file({ bytes: Buffer.alloc(0) })]),
    build('content that is not what the name says', [...fields(v), file({ bytes: randomBytes(2048) })]),
    build('a name with a NUL', [...fields(v), file({ filename: 'a\u0000b.png' })]),
    build('a name with control characters', [...fields(v), file({ filename: 'a\u0007\u001b.png' })]),
    build('a name that is not UTF-8', [
      ...fields(v),
      file({ filename: Buffer.from([0x61, 0xff, 0xed, 0xa0, 0x80, 0x2e, 0x70, 0x6e, 0x67]) }),
    ]),
    build('a name with path parts', [...fields(v), file({ filename: '../../etc/passwd.png' })]),
    build('an over-long name', [...fields(v), file({ filename: `${'n'.repeat(300)}.png` })]),
    build('a body cut short', [...fields(v), file()], { refused: true }),
    build('no boundary', [...fields(v), file()], { refused: true }, 'multipart/form-data'),
    { label: 'JSON instead of parts', caller: { kind: 'none' }, body: v, refusesField: fileField },
  );
  // A long file is still arriving when the call starts storing it: the body then ends half-way through the write.
  out.push(
    build(
      'a long body cut short',
      [...fields(v), file({ bytes: Buffer.concat([sample().bytes, Buffer.alloc(1 << 20)]) })],
      {
        refused: true,
      },
    ),
  );
  // Refused while most of its body is still to come: the requests after it on the same connection must be answered.
  const long = { bytes: Buffer.concat([sample().bytes, Buffer.alloc(1 << 20)]) };
  out.push(
    build(
      'a long file refused before its end',
      [...textFields.map(([name]) => ({ name, value: 'no-such-code' })), file(long)],
      { refused: textFields.length > 0 },
    ),
  );
  for (const cut of out.filter((r) => r.label.endsWith('body cut short')))
    cut.raw!.payload = (cut.raw!.payload as Buffer).subarray(0, (cut.raw!.payload as Buffer).length - 30);
  if (firstField) {
    out.push(
      build(`a NUL in ${firstField}`, [{ name: firstField, value: 'a\u0000b' }, ...fields(v).slice(1), file()], {
        refusesField: firstField,
      }),
      build(
        `control characters in ${firstField}`,
        [{ name: firstField, value: CONTROL_TEXT[3]! }, ...fields(v).slice(1), file()],
        { refusesField: firstField },
      ),
      build(
        `bytes that are not UTF-8 in ${firstField}`,
        [{ name: firstField, value: Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80]) }, ...fields(v).slice(1), file()],
        { refused: true },
      ),
      build(
        `over-long ${firstField}`,
        [
          { name: firstField, value: 'x'.repeat((schema.properties![firstField]!.maxLength ?? 200) + 1) },
          ...fields(v).slice(1),
          file(),
        ],
        { refusesField: firstField },
      ),
      build(`repeated ${firstField}`, [...fields(v), ...fields(v), file()], { refused: true }),
      build(`a file before ${firstField}`, [file(), ...fields(v)], { refusesField: firstField }),
    );
  }
  return { valid, hostile: out };
}

/** Signs the member in again, or replaces it, when a call ended its session or changed its password. */
async function revive(kind: Kind) {
  const m = members.get(kind)!;
  if ((await h.call('user/info', { token: m.token })).code === 200) return;
  const again = await h.call('login', { body: { account: m.account, password: m.password, saveLogin: true } });
  if (again.code === 200 && !(await h.call('user/info', { token: again.data.accessToken })).data?.forceChangePassword) {
    m.token = again.data.accessToken;
    m.refreshToken = again.data.refreshToken;
  } else members.set(kind, await addMember(h, mains.get(kind)!));
  watch.forget();
}

/** A call that changes a member's password: the new one is what the member signs in with from then on. */
function remember(op: Operation, req: FuzzRequest, answered: number) {
  if (answered !== 200 || !isOrgCaller(req.caller) || !req.caller.member) return;
  if (op.operationId === 'userChangePass' || op.operationId === 'userForceChangePass')
    members.get(req.caller.member)!.password = (req.body as { password: string }).password;
}

describe('schema fuzz of every call', () => {
  it('every multipart call has a valid file to send, and every identifier field has real values', () => {
    const p = pools();
    const missing: string[] = [];
    for (const op of operations) {
      if (op.body?.contentType === 'multipart/form-data' && !FILE_SAMPLES[op.operationId])
        missing.push(`${op.operationId}: no file sample in FILE_SAMPLES`);
      const names = [
        ...op.parameters.map((x) => x.name),
        ...(op.body
          ? targetsOf(op.body.schema).map((t) => String(t.path.filter((s) => typeof s === 'string').pop()))
          : []),
      ];
      for (const name of names)
        if (IDENTIFIER.test(name) && !FREE_FIELDS.has(name) && !p(name) && !['sig', 'exp'].includes(name))
          missing.push(`${op.operationId}: ${name} has no real values in pools()`);
    }
    for (const id of Object.keys(SPECIAL))
      if (!operations.some((op) => op.operationId === id)) missing.push(`SPECIAL names ${id}, which no longer exists`);
    expect(missing).toEqual([]);
  });

  it('every call that reads multipart parts declares them in the document', async () => {
    const undeclared: string[] = [];
    // The calls of SPECIAL are left out: none reads parts, and signing out the organizations here would end the run.
    for (const op of operations.filter((o) => o.method === 'POST' && !o.body && !SPECIAL[o.operationId])) {
      const form = multipart([{ name: 'zzProbe', value: 'x' }]);
      for (const o of mains.values()) {
        const res = await overHttp(
          `${w.base}/api/v2/${op.path}`,
          'POST',
          {
            authorization: `Bearer ${o.token}`,
            'content-type': form.contentType,
          },
          form.payload,
        );
        if (res.statusCode === 400 && JSON.parse(res.body).data?.field === 'zzProbe') {
          undeclared.push(`${op.operationId} reads multipart parts its document does not declare`);
          break;
        }
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('answers no server error, documents every answer, names refused fields and changes nothing on refusal', async () => {
    const ordered = [...operations].sort((a, b) => rank(a.operationId) - rank(b.operationId));
    const perCall: string[] = [];
    for (const op of ordered) {
      await refreshCredentials();
      const special = SPECIAL[op.operationId];
      const runs = Math.min(RUNS, special?.runs ?? RUNS);
      const multipartCall = op.body?.contentType === 'multipart/form-data';
      const parts = multipartCall ? multipartInputs(op, runs) : undefined;
      const valid = parts ? parts.valid : [...realRequests(op), ...validInputs(op, runs)];
      const hostile = parts ? parts.hostile : hostileInputs(op, valid.length ? valid : validInputs(op, 1));
      const before = { ...stats };
      const started = performance.now();
      const run = async (req: FuzzRequest) => {
        const res = await check(op, req);
        if (req.label === 'valid') stats.valid += 1;
        else stats.hostile += 1;
        remember(op, req, res.json?.code ?? 0);
        if (special?.byMember) for (const kind of KINDS) await revive(kind);
        return res;
      };
      // Organization types the call lets in: a multipart call reads its parts only after the permission check.
      const permitted: Kind[] = [];
      for (const [i, req] of valid.entries()) {
        const caller = req.caller.kind === 'none' ? callerFor(op, i) : req.caller;
        const res = await run({ ...req, caller });
        if (res.status !== 403 && isOrgCaller(caller) && !permitted.includes(caller.kind)) permitted.push(caller.kind);
      }
      for (const [i, req] of hostile.entries()) {
        const caller = callerFor(op, i);
        if (parts && permitted.length && isOrgCaller(caller)) {
          caller.kind = permitted[i % permitted.length]!;
          if (caller.member) caller.member = caller.kind;
        }
        await run({ ...req, caller });
      }
      // Nobody signed in: a session or device call answers 401 whatever the input.
      if (op.security !== 'public')
        await run({
          ...(valid[0] ?? hostile[0])!,
          label: 'no token',
          caller: { kind: 'none' },
          refusesField: undefined,
          refused: true,
        });
      stats.calls += 1;
      // Valid requests reach the logic: the document describes what the server takes.
      const sent = stats.validSignedIn - before.validSignedIn;
      const passed = stats.passedValidation - before.passedValidation;
      if (sent >= 8 && passed < sent * 0.75)
        failures.push({
          op: op.operationId,
          request: '(valid requests)',
          problem: `only ${passed} of ${sent} requests valid by the document passed the server's schema`,
        });
      perCall.push(
        `${op.operationId} ${stats.requests - before.requests} requests, ${stats.ok - before.ok} answered 200, ` +
          `valid ones passing the schema ${stats.passedValidation - before.passedValidation}/${stats.validSignedIn - before.validSignedIn}, ` +
          `${Math.round(performance.now() - started)} ms`,
      );
      if (process.env.FUZZ_VERBOSE) console.log(perCall.at(-1));
      // Every organization's own session lives through every call.
      for (const [kind, o] of mains) {
        const alive = await h.call('user/info', { token: o.token });
        if (alive.code !== 200)
          failures.push({
            op: op.operationId,
            request: '(after the call)',
            problem: `the session of ${kind} ended: ${alive.code}`,
          });
      }
      if (failures.length > 40) break;
    }
    console.log(
      `schema fuzz: ${stats.calls} calls, ${stats.requests} requests (${stats.valid} valid, ${stats.hostile} hostile), ` +
        `${stats.ok} answered 200, seed ${SEED}, FUZZ_RUNS ${RUNS}`,
    );
    expect(failures.slice(0, 30), `${failures.length} failures`).toEqual([]);
  }, 600_000);
});
