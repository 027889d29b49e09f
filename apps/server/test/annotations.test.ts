import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGREEMENT_TYPES, ANNOTATION_LIMITS, OrgType, UserStatus } from '@portal/contracts';
import { hashPassword, newCode } from '../src/platform/crypto.js';
import { UsersService } from '../src/modules/users/users.service.js';
import { agreementsRepository } from '../src/modules/agreements/agreements.repository.js';
import { createHarness, login, PASSWORD, type Harness } from './harness.js';
import { count, CROWN, newCase, orderAction, partner, side, type Side } from './fixtures.js';
import { binaryStl, PNG, tusUpload } from './uploads.js';
import { stateChanges, stateSnapshot, StateWatch } from './state.js';

let h: Harness;
let base: string;
let clinic: Side;
let lab: Side;
/** A partner laboratory of the clinic that is not party to the order. */
let otherLab: Side;
let stranger: Side;
let partnerCode: string;

/** The ordered case: its model and picture; the order prescribes teeth 16 and 11. */
let caseCode: string;
let stl: string;
let png: string;
let orderCode: string;
/** Another case of the clinic with its own model, and the stranger's case and model. */
let otherStl: string;
let strangerCase: string;
let strangerStl: string;

const LOOP: Array<[number, number, number]> = [
  [0, 0, 0],
  [4.25, 0, 0.5],
  [4, 4.125, 1],
  [0, 4, -0.75],
];
const INCISOR = { number: 11, shade: 'A1', material: 'Zirconia', method: 'screwRetained' };

/** A case of `s` with one model (and a picture when asked); answers the case and the files' codes. */
async function caseWithModel(s: Side, picture = false) {
  const code = await newCase(h, s, 'Scan', 'Ada Berg');
  await tusUpload(base, s.token, binaryStl(200, Number.parseInt(randomBytes(1).toString('hex'), 16)), {
    caseCode: code,
    filename: 'upper.stl',
    jaw: 'upper',
  });
  if (picture) await tusUpload(base, s.token, PNG, { caseCode: code, filename: 'photo.png' });
  await h.app.platform.jobs.drain();
  const files = (await h.call('case/detail', { token: s.token, body: { caseCode: code } })).data.files as Array<{
    fileCode: string;
    format: string;
  }>;
  return {
    caseCode: code,
    stl: files.find((f) => f.format === 'stl')!.fileCode,
    png: files.find((f) => f.format === 'png')?.fileCode ?? '',
  };
}

async function orderOf(caseCodes: string[], teeth: unknown[] = [CROWN, INCISOR]) {
  const res = await h.call('order/create', {
    token: clinic.token,
    body: { caseCodes, partnerCode, orderType: 'restoration', workTypes: ['Crown'], teeth },
  });
  expect(res.code).toBe(200);
  return res.data.list[0].orderCode as string;
}

const add = (s: Side, body: Record<string, unknown> = {}) =>
  h.call('case/annotation/add', {
    token: s.token,
    body: { caseCode, fileCode: stl, point: [1, 2, 3], text: 'Note', ...body },
  });
const listOfCase = (s: Side, code = caseCode) =>
  h.call('case/annotation/list', { token: s.token, body: { caseCode: code } });
const save = (s: Side, body: Record<string, unknown> = {}) =>
  h.call('order/marginLine/save', {
    token: s.token,
    body: { orderCode, tooth: 16, fileCode: stl, points: LOOP, ...body },
  });
const lines = (s: Side, code = orderCode) =>
  h.call('order/marginLine/list', { token: s.token, body: { orderCode: code } });

/** A 400 that names the field (or a part of it: `point.0`). */
function refusedNaming(res: { status: number; code: number; data: any }, field: string) {
  expect([res.status, res.code]).toEqual([400, 400]);
  const named = [res.data?.field, ...((res.data?.errors ?? []) as Array<{ field: string }>).map((e) => e.field)];
  expect(
    named.some((f) => f === field || String(f).startsWith(`${field}.`)),
    JSON.stringify(res.data),
  ).toBe(true);
}

/** Runs refused requests and proves they changed nothing. */
async function changesNothing(run: () => Promise<void>) {
  await new StateWatch(h).settle();
  const before = await stateSnapshot(h);
  await run();
  expect(stateChanges(before, await stateSnapshot(h))).toEqual([]);
}

/** Another user of an organization with the given role (the organization's built-in one by default), signed in. */
async function member(s: Side, roleCode?: string): Promise<Side & { userCode: string; displayName: string }> {
  const account = `member${randomBytes(4).toString('hex')}`;
  const [role] = roleCode
    ? await h.db.query<{ id: number }>('SELECT id FROM roles WHERE code = $1', [roleCode])
    : await h.db.query<{ id: number }>('SELECT role_id AS id FROM users WHERE id = $1', [s.userId]);
  const userCode = newCode('u');
  const displayName = `Member ${account}`;
  const userId = await UsersService.insert(h.db, {
    userCode,
    account,
    email: `${account}@example.test`,
    phone: null,
    displayName,
    organizationId: s.organizationId,
    roleId: Number(role!.id),
    status: UserStatus.Activated,
    isOrgAdmin: !roleCode,
    language: 'en',
    passwordHash: await hashPassword(PASSWORD),
  });
  await agreementsRepository.markRead(h.db, userId, [...AGREEMENT_TYPES]);
  const tokens = await login(h, account);
  return { ...s, token: tokens.accessToken, userId, account, userCode, displayName };
}

beforeAll(async () => {
  h = await createHarness();
  base = await h.listen();
  clinic = await side(h, OrgType.Clinic);
  lab = await side(h, OrgType.Lab);
  otherLab = await side(h, OrgType.Lab);
  stranger = await side(h, OrgType.Clinic);
  partnerCode = await partner(h, clinic, lab);
  await partner(h, clinic, otherLab);
  ({ caseCode, stl, png } = await caseWithModel(clinic, true));
  ({ stl: otherStl } = await caseWithModel(clinic));
  ({ caseCode: strangerCase, stl: strangerStl } = await caseWithModel(stranger));
  orderCode = await orderOf([caseCode]);
}, 60_000);
afterAll(() => h?.close());

describe('annotations of a case', () => {
  it('are added, listed oldest first with their numbers, and deleted (the others numbered again)', async () => {
    const c = await caseWithModel(clinic);
    const texts = ['Open margin distally', 'Check the contact', 'Undercut'];
    const made = [];
    for (const [i, text] of texts.entries()) {
      const res = await add(clinic, { caseCode: c.caseCode, fileCode: c.stl, point: [1.25 * i, -2.5, 0.001], text });
      expect(res.code).toBe(200);
      made.push(res.data);
    }
    expect(made[0]).toEqual({
      annotationCode: expect.stringMatching(/^an[0-9a-f]{8}$/),
      fileCode: c.stl,
      point: [0, -2.5, 0.001],
      text: 'Open margin distally',
      number: 1,
      authorName: `User ${clinic.account}`,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    expect(made.map((a) => a.number)).toEqual([1, 2, 3]);

    const listed = await listOfCase(clinic, c.caseCode);
    expect(listed.code).toBe(200);
    expect(listed.data.list).toEqual(made);

    const removed = await h.call('case/annotation/delete', {
      token: clinic.token,
      body: { annotationCode: made[1].annotationCode },
    });
    expect([removed.code, removed.data]).toEqual([200, null]);
    const after = (await listOfCase(clinic, c.caseCode)).data.list;
    expect(after.map((a: { text: string; number: number }) => [a.text, a.number])).toEqual([
      ['Open margin distally', 1],
      ['Undercut', 2],
    ]);
    const again = await h.call('case/annotation/delete', {
      token: clinic.token,
      body: { annotationCode: made[1].annotationCode },
    });
    expect([again.status, again.code]).toEqual([404, 404]);
    // A case without annotations lists none.
    expect((await listOfCase(clinic, (await caseWithModel(clinic)).caseCode)).data).toEqual({ list: [] });
  });

  it('keep the text trimmed, 1–500 characters, and the point three finite numbers within ±10000', async () => {
    const trimmed = await add(clinic, { text: '  Margin open distally \n' });
    expect(trimmed.data.text).toBe('Margin open distally');
    expect((await add(clinic, { text: `  ${'x'.repeat(500)}  ` })).data.text).toHaveLength(500);
    expect((await add(clinic, { point: [-10000, 10000, 0] })).data.point).toEqual([-10000, 10000, 0]);

    await changesNothing(async () => {
      for (const text of ['', '   ', '\n\t', 'x'.repeat(501), 12, null])
        refusedNaming(await add(clinic, { text }), 'text');
      refusedNaming(
        await h.call('case/annotation/add', {
          token: clinic.token,
          body: { caseCode, fileCode: stl, point: [1, 2, 3] },
        }),
        'text',
      );
      for (const point of [
        [10000.5, 0, 0],
        [0, -1e20, 0],
        [0, 0],
        [0, 0, 0, 0],
        ['1', 2, 3],
        [null, 2, 3],
        'x',
        { x: 1, y: 2, z: 3 },
        [],
        null,
      ])
        refusedNaming(await add(clinic, { point }), 'point');
      refusedNaming(await add(clinic, { caseCode: '' }), 'caseCode');
      refusedNaming(await add(clinic, { fileCode: 'x'.repeat(65) }), 'fileCode');
      refusedNaming(await add(clinic, { caseCode: 'a\u0000b' }), 'caseCode');
      refusedNaming(await add(clinic, { text: 'a\u0007b' }), 'text');
    });
  });

  it('go only on a model of the case: a picture, another case’s model or an unknown file is refused naming fileCode', async () => {
    await changesNothing(async () => {
      for (const fileCode of [png, otherStl, strangerStl, 'f00000000'])
        refusedNaming(await add(clinic, { fileCode }), 'fileCode');
      // The stranger cannot pin to its own model through the clinic's case either.
      refusedNaming(await add(stranger, { caseCode: strangerCase, fileCode: stl }), 'fileCode');
    });
  });

  it(`hold at most ${ANNOTATION_LIMITS.perCase} per case`, async () => {
    const c = await caseWithModel(clinic);
    for (let i = 1; i <= ANNOTATION_LIMITS.perCase; i++) {
      const res = await add(clinic, { caseCode: c.caseCode, fileCode: c.stl, text: `Note ${i}` });
      expect(res.data.number).toBe(i);
    }
    let first = '';
    await changesNothing(async () => {
      const over = await add(clinic, { caseCode: c.caseCode, fileCode: c.stl, text: 'One too many' });
      expect([over.status, over.code]).toEqual([409, 2084]);
      expect(over.msg).toBe(`A case can hold at most ${ANNOTATION_LIMITS.perCase} annotations.`);
      const listed = (await listOfCase(clinic, c.caseCode)).data.list;
      expect(listed).toHaveLength(ANNOTATION_LIMITS.perCase);
      first = listed[0].annotationCode;
    });
    const translated = await h.call('case/annotation/add', {
      token: clinic.token,
      lang: 'de',
      body: { caseCode: c.caseCode, fileCode: c.stl, point: [0, 0, 0], text: 'Zu viel' },
    });
    expect(translated.msg).toBe(`Ein Fall kann höchstens ${ANNOTATION_LIMITS.perCase} Anmerkungen enthalten.`);
    // Room again once one is removed; the limit is per case.
    await h.call('case/annotation/delete', { token: clinic.token, body: { annotationCode: first } });
    const room = await add(clinic, { caseCode: c.caseCode, fileCode: c.stl, text: 'Fits again' });
    expect([room.code, room.data.number]).toEqual([200, ANNOTATION_LIMITS.perCase]);
    expect((await add(clinic)).code).toBe(200);
  }, 60_000);

  it('count additions made at once one after the other: the limit holds', async () => {
    const c = await caseWithModel(clinic);
    for (let i = 0; i < ANNOTATION_LIMITS.perCase - 3; i++)
      await add(clinic, { caseCode: c.caseCode, fileCode: c.stl, text: `Note ${i}` });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => add(clinic, { caseCode: c.caseCode, fileCode: c.stl, text: `Race ${i}` })),
    );
    expect(answers.map((a) => a.code).sort()).toEqual([200, 200, 200, 2084, 2084, 2084, 2084, 2084]);
    const listed = (await listOfCase(clinic, c.caseCode)).data.list as Array<{ number: number }>;
    expect(listed.map((a) => a.number)).toEqual(Array.from({ length: ANNOTATION_LIMITS.perCase }, (_, i) => i + 1));
  }, 60_000);

  it('are refused while the case is in the recycle bin, and come back with it', async () => {
    const c = await caseWithModel(clinic);
    const made = (await add(clinic, { caseCode: c.caseCode, fileCode: c.stl })).data;
    expect((await h.call('case/delete', { token: clinic.token, body: { caseCodes: [c.caseCode] } })).code).toBe(200);
    await changesNothing(async () => {
      for (const res of [
        await listOfCase(clinic, c.caseCode),
        await add(clinic, { caseCode: c.caseCode, fileCode: c.stl }),
        await h.call('case/annotation/delete', { token: clinic.token, body: { annotationCode: made.annotationCode } }),
      ])
        expect([res.status, res.code]).toEqual([404, 404]);
    });
    await h.call('case/restore', { token: clinic.token, body: { caseCodes: [c.caseCode] } });
    expect((await listOfCase(clinic, c.caseCode)).data.list).toEqual([made]);
  });

  it('go with their model file when it is deleted', async () => {
    const c = await caseWithModel(clinic);
    await add(clinic, { caseCode: c.caseCode, fileCode: c.stl });
    expect((await h.call('file/delete', { token: clinic.token, body: { fileCode: c.stl } })).code).toBe(200);
    expect((await listOfCase(clinic, c.caseCode)).data.list).toEqual([]);
  });

  it('are the organization’s own: another organization, the laboratory of the order included, gets 404', async () => {
    const made = (await add(clinic, { text: 'Clinic only' })).data;
    await changesNothing(async () => {
      for (const s of [stranger, lab]) {
        for (const res of [
          await listOfCase(s),
          await add(s),
          await h.call('case/annotation/delete', { token: s.token, body: { annotationCode: made.annotationCode } }),
        ]) {
          expect([res.status, res.code]).toEqual([404, 404]);
          expect(JSON.stringify(res.data ?? '')).not.toContain('Clinic only');
        }
      }
    });
  });

  it('need the case permissions: view to list, edit to add and delete', async () => {
    const made = await h.call('user/role/save_or_update', { token: clinic.token, body: { name: 'Viewer' } });
    await h.call('user/role/allotRolePermission', {
      token: clinic.token,
      body: { roleCode: made.data.roleCode, menuCodes: ['cases', 'caseDetail', 'orders', 'orderDetail'] },
    });
    const viewer = await member(clinic, made.data.roleCode);
    expect((await listOfCase(viewer)).code).toBe(200);
    expect((await h.call('order/annotation/list', { token: viewer.token, body: { orderCode } })).code).toBe(200);
    expect((await lines(viewer)).code).toBe(200);
    const code = (await add(clinic)).data.annotationCode;
    await changesNothing(async () => {
      for (const res of [
        await add(viewer),
        await h.call('case/annotation/delete', { token: viewer.token, body: { annotationCode: code } }),
        await save(viewer),
        await h.call('order/marginLine/delete', { token: viewer.token, body: { orderCode, tooth: 16 } }),
      ])
        expect([res.status, res.code]).toEqual([403, 1002]);
    });
  });
});

describe('annotations on an order', () => {
  it('are read by both parties, read-only; anyone else gets 404', async () => {
    const note = (await add(clinic, { text: 'For the laboratory' })).data;
    const ofCase = (await listOfCase(clinic)).data.list;
    for (const s of [clinic, lab]) {
      const res = await h.call('order/annotation/list', { token: s.token, body: { orderCode } });
      expect(res.code).toBe(200);
      expect(res.data.list).toEqual(ofCase);
      expect(res.data.list).toContainEqual(note);
    }
    // An organization that has no orders.
    const dealer = await side(h, OrgType.Dealer);
    await changesNothing(async () => {
      for (const s of [otherLab, stranger]) {
        const res = await h.call('order/annotation/list', { token: s.token, body: { orderCode } });
        expect([res.status, res.code]).toEqual([404, 404]);
        expect(JSON.stringify(res.data ?? '')).not.toContain('For the laboratory');
      }
      const refused = await h.call('order/annotation/list', { token: dealer.token, body: { orderCode } });
      expect([refused.status, refused.code]).toEqual([403, 1002]);
    });
  });
});

describe('margin lines', () => {
  it('either party draws, replaces, lists (by tooth) and removes a prescribed tooth’s line', async () => {
    const drawn = await save(lab);
    expect(drawn.code).toBe(200);
    expect(drawn.data).toEqual({
      tooth: 16,
      fileCode: stl,
      points: LOOP,
      authorName: `User ${lab.account}`,
      organizationName: `Org ${lab.account}`,
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    expect((await lines(clinic)).data.list).toEqual([drawn.data]);

    // The clinic replaces it: one line per tooth, now the clinic's.
    const moved = LOOP.map(([x, y, z]) => [x + 0.5, y, z] as const);
    const replaced = await save(clinic, { points: moved });
    expect(replaced.data).toMatchObject({
      tooth: 16,
      points: moved,
      authorName: `User ${clinic.account}`,
      organizationName: `Org ${clinic.account}`,
    });
    const incisor = await save(lab, { tooth: 11, points: LOOP.slice(0, 3) });
    expect(incisor.code).toBe(200);
    const both = (await lines(lab)).data.list;
    expect(both.map((l: { tooth: number }) => l.tooth)).toEqual([11, 16]);
    expect(both[1]).toEqual(replaced.data);
    expect(await count(h, 'margin_lines')).toBe(2);

    const removed = await h.call('order/marginLine/delete', { token: clinic.token, body: { orderCode, tooth: 11 } });
    expect([removed.code, removed.data]).toEqual([200, null]);
    expect((await lines(clinic)).data.list.map((l: { tooth: number }) => l.tooth)).toEqual([16]);
    const again = await h.call('order/marginLine/delete', { token: lab.token, body: { orderCode, tooth: 11 } });
    expect([again.status, again.code]).toEqual([404, 404]);
  });

  it('refuse a tooth the order does not prescribe, naming tooth', async () => {
    await changesNothing(async () => {
      for (const tooth of [21, 48, 10, 49, 16.5, '16a', null]) refusedNaming(await save(lab, { tooth }), 'tooth');
      for (const tooth of [21, 10])
        refusedNaming(
          await h.call('order/marginLine/delete', { token: lab.token, body: { orderCode, tooth } }),
          'tooth',
        );
    });
  });

  it('take 3 to 500 points of finite coordinates, naming points, on a model of the order’s case', async () => {
    const many = Array.from({ length: 500 }, (_, i) => [Math.cos(i) * 5, Math.sin(i) * 5, i / 100]);
    const saved = await save(lab, { points: many });
    expect(saved.data.points).toEqual(many);
    await changesNothing(async () => {
      for (const points of [
        [],
        LOOP.slice(0, 2),
        Array.from({ length: 501 }, () => [0, 0, 0]),
        [[0, 0], ...LOOP],
        [[0, 0, 1e5], ...LOOP],
        [['a', 0, 0], ...LOOP],
        'loop',
        null,
      ])
        refusedNaming(await save(lab, { points }), 'points');
      for (const fileCode of [png, otherStl, strangerStl]) refusedNaming(await save(lab, { fileCode }), 'fileCode');
    });
  });

  it('are kept but no longer changed once the order is canceled, rejected or completed (2035)', async () => {
    // Canceled by the clinic.
    const canceled = await orderOf([(await caseWithModel(clinic)).caseCode]);
    expect((await orderAction(h, clinic, [canceled], 'cancel')).data.results[0].ok).toBe(true);
    // Completed: lines may be drawn while it runs (shipped included), then they stay as they are.
    const c = await caseWithModel(clinic);
    const completed = await orderOf([c.caseCode]);
    await orderAction(h, lab, [completed], 'accept');
    await orderAction(h, lab, [completed], 'ready');
    await orderAction(h, lab, [completed], 'ship', { trackingNumber: 'T-1' });
    const shipped = await save(lab, { orderCode: completed, fileCode: c.stl });
    expect(shipped.code).toBe(200);
    expect((await orderAction(h, clinic, [completed], 'complete')).data.results[0].ok).toBe(true);
    // Rejected by the laboratory.
    const rejected = await orderOf([(await caseWithModel(clinic)).caseCode]);
    await orderAction(h, lab, [rejected], 'reject', { reason: 'No scan body' });

    await changesNothing(async () => {
      for (const [code, status] of [
        [canceled, 'Canceled'],
        [completed, 'Completed'],
        [rejected, 'Rejected'],
      ] as const)
        for (const s of [clinic, lab]) {
          const res = await save(s, { orderCode: code, fileCode: c.stl });
          expect([res.status, res.code]).toEqual([409, 2035]);
          expect(res.msg).toContain(`(${status})`);
          const del = await h.call('order/marginLine/delete', { token: s.token, body: { orderCode: code, tooth: 16 } });
          expect([del.status, del.code]).toEqual([409, 2035]);
        }
    });
    expect((await lines(clinic, completed)).data.list).toEqual([shipped.data]);
  });

  it('are the order’s parties’ own: anyone else gets 404, who may not draw gets 403', async () => {
    await save(lab);
    const dealer = await side(h, OrgType.Dealer);
    await changesNothing(async () => {
      for (const s of [otherLab, stranger])
        for (const res of [
          await lines(s),
          await save(s),
          await h.call('order/marginLine/delete', { token: s.token, body: { orderCode, tooth: 16 } }),
        ]) {
          expect([res.status, res.code]).toEqual([404, 404]);
          expect(JSON.stringify(res.data ?? '')).not.toContain(stl);
        }
      for (const res of [await lines(dealer), await save(dealer)]) expect([res.status, res.code]).toEqual([403, 1002]);
    });
    // A laboratory role without production rights reads the lines but draws none.
    const role = await h.call('user/role/save_or_update', { token: lab.token, body: { name: 'Reader' } });
    await h.call('user/role/allotRolePermission', {
      token: lab.token,
      body: { roleCode: role.data.roleCode, menuCodes: ['orders', 'orderDetail'] },
    });
    const reader = await member(lab, role.data.roleCode);
    expect((await lines(reader)).code).toBe(200);
    expect((await save(reader)).code).toBe(1002);
  });
});

describe('authors', () => {
  it('a deleted user’s annotations and lines stay, without a name', async () => {
    const staff = await member(clinic);
    const note = (await add(staff, { text: 'By staff' })).data;
    expect(note.authorName).toBe(staff.displayName);
    const line = (await save(staff, { tooth: 11 })).data;
    expect(line.authorName).toBe(staff.displayName);

    await h.call('user/checkIdentity', { token: clinic.token, body: { password: PASSWORD } });
    const deleted = await h.call('user/delByIds', { token: clinic.token, body: { userCodes: [staff.userCode] } });
    expect(deleted.code).toBe(200);

    const listed = (await listOfCase(clinic)).data.list.find(
      (a: { annotationCode: string }) => a.annotationCode === note.annotationCode,
    );
    expect(listed).toEqual({ ...note, authorName: null });
    const ofOrder = (await h.call('order/annotation/list', { token: lab.token, body: { orderCode } })).data.list;
    expect(ofOrder.find((a: { annotationCode: string }) => a.annotationCode === note.annotationCode).authorName).toBe(
      null,
    );
    const drawn = (await lines(lab)).data.list.find((l: { tooth: number }) => l.tooth === 11);
    expect(drawn).toEqual({ ...line, authorName: null, organizationName: `Org ${clinic.account}` });
  });
});
