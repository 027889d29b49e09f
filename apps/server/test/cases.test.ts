import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType } from '@portal/contracts';
import { createHarness, createUser, login, snapshot, type Harness } from './harness.js';

let h: Harness;
let token: string;
let other: string;
beforeAll(async () => {
  h = await createHarness();
  token = (await login(h, (await createUser(h.db)).account)).accessToken;
  other = (await login(h, (await createUser(h.db, { orgType: OrgType.Lab })).account)).accessToken;
});
afterAll(() => h.close());

const newCase = (over: Record<string, unknown> = {}, t = token) =>
  h.call('case/create', {
    token: t,
    body: {
      name: 'Crown 16',
      patientName: 'Maria Keller',
      patientId: 'P-100',
      birthDate: '1980-05-17',
      scanDate: '2026-11-20T09:30:00Z',
      treatments: ['Crown'],
      ...over,
    },
  });

describe('cases', () => {
  it('creates a case with computed age and reads it back', async () => {
    const res = await newCase({ memo: 'Shade A2' });
    expect(res.code).toBe(200);
    expect(res.data).toMatchObject({
      name: 'Crown 16',
      patientName: 'Maria Keller',
      birthDate: '1980-05-17',
      status: 'registered',
      treatments: ['Crown'],
      memo: 'Shade A2',
      files: [],
    });
    expect(res.data.age).toBeGreaterThanOrEqual(46);
    const detail = await h.call('case/detail', { token, body: { caseCode: res.data.caseCode } });
    expect(detail.data.caseCode).toBe(res.data.caseCode);
  });

  it('validates fields, naming them, and changes nothing', async () => {
    const before = await snapshot(h.db);
    const long = await newCase({ name: 'x'.repeat(129) });
    expect([long.code, long.data.field]).toEqual([400, 'name']);
    expect(long.msg).toContain('128');
    expect((await newCase({ patientName: '' })).data.field).toBe('patientName');
    expect((await newCase({ treatments: ['Crown', 'Teleportation'] })).data.field).toMatch(/^treatments/);
    expect((await newCase({ birthDate: '17.05.1980' })).data.field).toBe('birthDate');
    expect((await newCase({ birthDate: '2999-01-01' })).data.field).toBe('birthDate');
    expect((await newCase({ scanDate: 'yesterday' })).data.field).toBe('scanDate');
    expect((await newCase({ dentistId: 999999 })).data.field).toBe('dentistId');
    expect(await snapshot(h.db)).toBe(before);
  });

  it('lists with paging, sorting, filters and patient search', async () => {
    const h2 = await createHarness();
    try {
      const t = (await login(h2, (await createUser(h2.db)).account)).accessToken;
      const dentist = (await h2.call('dentist/save', { token: t, body: { name: 'Dr. Weiss' } })).data.id;
      for (let i = 0; i < 7; i++) {
        await h2.call('case/create', {
          token: t,
          body: {
            name: `Case ${i}`,
            patientName: i % 2 ? `Anna ${i}` : `Bernd ${i}`,
            patientId: `ID-${i}`,
            scanDate: `2026-11-0${i + 1}T10:00:00Z`,
            treatments: i < 3 ? ['Veneer'] : ['Crown'],
            dentistId: i === 0 ? dentist : undefined,
          },
        });
      }
      const page1 = await h2.call('case/list', { token: t, body: { pageNum: 1, pageSize: 3 } });
      expect(page1.data.total).toBe(7);
      expect(page1.data.list.map((c: { name: string }) => c.name)).toEqual(['Case 6', 'Case 5', 'Case 4']);
      // Times in the API's format (written by the database for lists), the same on the list and the detail.
      const first = page1.data.list[0] as { caseCode: string; scanDate: string; createdAt: string; deletedAt: null };
      expect(first.scanDate).toBe('2026-11-07T10:00:00.000Z');
      expect(first.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(first.deletedAt).toBeNull();
      const detail = await h2.call('case/detail', { token: t, body: { caseCode: first.caseCode } });
      expect([detail.data.scanDate, detail.data.createdAt]).toEqual([first.scanDate, first.createdAt]);
      // A page past the end is empty and still tells the total; so does a filter nothing matches.
      const past = await h2.call('case/list', { token: t, body: { pageNum: 4, pageSize: 3 } });
      expect([past.data.total, past.data.list]).toEqual([7, []]);
      const asc = await h2.call('case/list', { token: t, body: { sortOrder: 'asc', pageSize: 2 } });
      expect(asc.data.list.map((c: { name: string }) => c.name)).toEqual(['Case 0', 'Case 1']);
      const byName = await h2.call('case/list', {
        token: t,
        body: { sortField: 'patientName', sortOrder: 'asc', pageSize: 1 },
      });
      expect(byName.data.list[0].patientName).toBe('Anna 1');
      expect((await h2.call('case/list', { token: t, body: { keyword: 'anna' } })).data.total).toBe(3);
      expect((await h2.call('case/list', { token: t, body: { keyword: 'id-4' } })).data.list[0].name).toBe('Case 4');
      expect((await h2.call('case/list', { token: t, body: { keyword: '%' } })).data.total).toBe(0);
      // Search pages, sorts and combines with the filters like the plain list.
      const names = (res: { data: { list: { name: string }[] } }) => res.data.list.map((c) => c.name);
      const anna2 = await h2.call('case/list', { token: t, body: { keyword: 'Anna', pageNum: 2, pageSize: 2 } });
      expect([anna2.data.total, names(anna2)]).toEqual([3, ['Case 1']]);
      const anna3 = await h2.call('case/list', { token: t, body: { keyword: 'anna', pageNum: 3, pageSize: 2 } });
      expect([anna3.data.total, names(anna3)]).toEqual([3, []]);
      const byPatient = await h2.call('case/list', {
        token: t,
        body: { keyword: 'anna', sortField: 'patientName', sortOrder: 'asc' },
      });
      expect(byPatient.data.list.map((c: { patientName: string }) => c.patientName)).toEqual([
        'Anna 1',
        'Anna 3',
        'Anna 5',
      ]);
      const veneer = await h2.call('case/list', { token: t, body: { keyword: 'anna', treatment: 'Veneer' } });
      expect([veneer.data.total, names(veneer)]).toEqual([1, ['Case 1']]);
      expect((await h2.call('case/list', { token: t, body: { keyword: 'id' } })).data.total).toBe(7);
      // A case whose name and ID both match is one hit.
      await h2.call('case/create', {
        token: t,
        body: {
          name: 'Case 7',
          patientName: 'Idris 7',
          patientId: 'ID-7',
          scanDate: '2026-11-08T10:00:00Z',
          treatments: ['Crown'],
        },
      });
      const both = await h2.call('case/list', { token: t, body: { keyword: 'id', pageSize: 2 } });
      expect([both.data.total, names(both)]).toEqual([8, ['Case 7', 'Case 6']]);
      await h2.call('case/delete', { token: t, body: { caseCodes: [both.data.list[0].caseCode] } });
      expect((await h2.call('case/list', { token: t, body: { treatment: 'Veneer' } })).data.total).toBe(3);
      expect((await h2.call('case/list', { token: t, body: { dentistId: dentist } })).data.list[0].dentist.name).toBe(
        'Dr. Weiss',
      );
      expect(
        (await h2.call('case/list', { token: t, body: { dateFrom: '2026-11-03', dateTo: '2026-11-04' } })).data.total,
      ).toBe(2);
      // Days are the reader's, midnight included: 'Case 2' was scanned at 10:00 UTC on 3 November, which is midnight
      // starting the 3rd in Honolulu (UTC−10) and midnight starting the 4th in Kiritimati (UTC+14).
      const onDay = async (day: string, timezone: string) =>
        names(
          await h2.call('case/list', {
            token: t,
            body: { dateFrom: day, dateTo: day },
            headers: { timezone },
          }),
        );
      expect(await onDay('2026-11-03', 'Pacific/Honolulu')).toEqual(['Case 2']);
      expect(await onDay('2026-11-04', 'Pacific/Kiritimati')).toEqual(['Case 2']);
      expect(await onDay('2026-11-03', 'Pacific/Kiritimati')).toEqual(['Case 1']);
      expect((await h2.call('case/list', { token: t, body: { status: 'uploaded' } })).data.total).toBe(0);
      expect((await h2.call('case/list', { token: t, body: { sortField: 'age' } })).data.field).toBe('sortField');
      expect((await h2.call('case/list', { token: t, body: { pageSize: 1000 } })).data.field).toBe('pageSize');
    } finally {
      await h2.close();
    }
  });

  it('moves to the recycle bin, restores, purges', async () => {
    const c = (await newCase()).data.caseCode;
    expect((await h.call('case/delete', { token, body: { caseCodes: [c] } })).data.count).toBe(1);
    expect((await h.call('case/detail', { token, body: { caseCode: c } })).code).toBe(404);
    const bin = await h.call('case/recycleBin', { token, body: {} });
    expect(bin.data.list.find((x: { caseCode: string }) => x.caseCode === c).deletedAt).toBeTruthy();
    expect((await h.call('case/restore', { token, body: { caseCodes: c } })).data.count).toBe(1);
    expect((await h.call('case/detail', { token, body: { caseCode: c } })).code).toBe(200);
    await h.call('case/delete', { token, body: { caseCodes: [c] } });
    expect((await h.call('case/purge', { token, body: { caseCodes: [c] } })).data.count).toBe(1);
    expect((await h.call('case/restore', { token, body: { caseCodes: [c] } })).code).toBe(404);
  });

  it('purges binned cases after the retention period', async () => {
    const c = (await newCase()).data.caseCode;
    await h.call('case/delete', { token, body: { caseCodes: [c] } });
    expect(await h.app.housekeeping.run('recycleBinPurge')).toEqual({ purged: 0, failed: 0 });
    await h.db.query(`UPDATE cases SET deleted_at = now() - interval '31 days' WHERE code = $1`, [c]);
    expect(await h.app.housekeeping.run('recycleBinPurge')).toEqual({ purged: 1, failed: 0 });
    expect(await h.db.query('SELECT 1 FROM cases WHERE code = $1', [c])).toHaveLength(0);
  });

  it("never shows one organization's cases to another", async () => {
    const c = (await newCase()).data.caseCode;
    const before = await snapshot(h.db);
    for (const [path, body] of [
      ['case/detail', { caseCode: c }],
      ['case/update', { caseCode: c, name: 'x', patientName: 'y' }],
      ['case/delete', { caseCodes: [c] }],
      ['case/restore', { caseCodes: [c] }],
      ['case/purge', { caseCodes: [c] }],
    ] as const) {
      expect((await h.call(path, { token: other, body })).code, path).toBe(404);
    }
    expect(
      (await h.call('case/list', { token: other, body: {} })).data.list.some(
        (x: { caseCode: string }) => x.caseCode === c,
      ),
    ).toBe(false);
    expect(await snapshot(h.db)).toBe(before);
  });

  it('is closed to dealers and OEMs, whose menus hold no cases', async () => {
    const dealer = (await login(h, (await createUser(h.db, { orgType: OrgType.Dealer })).account)).accessToken;
    expect((await h.call('case/list', { token: dealer, body: {} })).code).toBe(1002);
  });
});

describe('dentists', () => {
  it('requires a name, unique per organization', async () => {
    const first = await h.call('dentist/save', { token, body: { name: 'Dr. Lang' } });
    expect(first.code).toBe(200);
    const dup = await h.call('dentist/save', { token, body: { name: 'dr. lang' } });
    expect([dup.status, dup.code, dup.msg]).toEqual([409, 2023, 'This name is already in use.']);
    const empty = await h.call('dentist/save', { token, body: { name: '  ' } });
    expect([empty.code, empty.data.field]).toEqual([400, 'name']);
    expect(empty.msg).toContain('Please enter a name.');
    // Another organization may use the same name.
    expect((await h.call('dentist/save', { token: other, body: { name: 'Dr. Lang' } })).code).toBe(200);
    expect((await h.call('dentist/save', { token: other, body: { id: first.data.id, name: 'Stolen' } })).code).toBe(
      404,
    );
    expect((await h.call('dentist/delete', { token: other, body: { id: first.data.id } })).code).toBe(404);
    const c = (await newCase({ dentistId: first.data.id })).data;
    expect(c.dentist.name).toBe('Dr. Lang');
    expect((await h.call('dentist/list', { token, body: {} })).data.list[0]).toMatchObject({
      name: 'Dr. Lang',
      caseCount: 1,
    });
    expect((await h.call('dentist/delete', { token, body: { id: first.data.id } })).code).toBe(200);
    expect((await h.call('case/detail', { token, body: { caseCode: c.caseCode } })).data.dentist).toBeNull();
  });
});
