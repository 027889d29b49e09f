import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrgType, SPEED_TEST_MAX_BYTES } from '@portal/contracts';
import { createHarness, snapshot, type Harness } from './harness.js';
import { side, type Side } from './fixtures.js';

/** The update log with its "what's new" mark, the improvement programme, and the system check's speed test. */
let h: Harness;
let admin: Side;
let clinic: Side;
let lab: Side;
beforeAll(async () => {
  h = await createHarness();
  admin = await side(h, OrgType.Inner);
  clinic = await side(h, OrgType.Clinic);
  lab = await side(h, OrgType.Lab);
});
afterAll(() => h.close());

const save = (body: Record<string, unknown>, token = admin.token) =>
  h.call('software/update_log/save_or_update', { token, body });
const entry = (id: number, lang?: string) => h.call('software/get_update_log_detail', { body: { id }, lang });
const mark = (s: Side) => h.call('software/update_log_mark', { token: s.token });
const events = (s: Side, list: unknown[]) => h.call('usage/events', { token: s.token, body: { events: list } });

describe('update log', () => {
  let first: number;
  let latest: number;

  it('the super administrator writes entries in Markdown per language; readers get sanitized HTML', async () => {
    const made = await save({
      version: '2.4.0',
      releaseDate: '2026-10-01',
      texts: {
        en: {
          title: 'Faster viewer',
          markdown:
            '## Faster\n\n- **Cases** open sooner <script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n[a](javascript:alert(3)) [docs](https://example.com/docs)',
        },
        de: { title: 'Schnellere Ansicht', markdown: 'Fälle öffnen **schneller**.' },
      },
    });
    expect(made.code).toBe(200);
    first = made.data.id;
    const en = made.data.texts.find((t: { language: string }) => t.language === 'en');
    expect(en.html).toContain('<h2>Faster</h2>');
    expect(en.html).toContain('<strong>Cases</strong>');
    expect(en.html).toContain('href="https://example.com/docs"');
    expect(en.html).not.toMatch(/<script|<img|onerror|javascript:/i);
    // The stored HTML is what every reader gets, without signing in.
    const [stored] = await h.db.query<{ html: string }>(
      `SELECT html FROM update_log_texts WHERE entry_id = $1 AND language = 'en'`,
      [first],
    );
    expect(stored!.html).toBe(en.html);
    const read = await entry(first, 'en');
    expect(read).toMatchObject({ code: 200, data: { id: first, version: '2.4.0', releaseDate: '2026-10-01' } });
    expect(read.data.html).not.toMatch(/<script|onerror|javascript:/i);

    const second = await save({
      version: '2.5.0',
      releaseDate: '2026-11-20',
      texts: { en: { title: 'Update log', markdown: 'The update log is here.' } },
    });
    latest = second.data.id;
  });

  it('falls back to English for a language the entry is not written in', async () => {
    expect((await entry(first, 'de')).data).toMatchObject({ language: 'de', title: 'Schnellere Ansicht' });
    expect((await entry(first, 'fr')).data).toMatchObject({ language: 'en', title: 'Faster viewer' });
    const list = await h.call('software/get_update_log', { body: {}, lang: 'de' });
    expect(list.data.total).toBe(2);
    expect(list.data.list.map((e: { id: number; language: string }) => [e.id, e.language])).toEqual([
      [latest, 'en'],
      [first, 'de'],
    ]);
    expect((await entry(999_999)).status).toBe(404);
  });

  it('editing replaces the texts; bad input names the field and changes nothing', async () => {
    const edited = await save({
      id: first,
      version: '2.4.1',
      releaseDate: '2026-10-02',
      texts: { en: { title: 'Faster viewer', markdown: 'Only English now.' } },
    });
    expect(edited.data.texts.map((t: { language: string }) => t.language)).toEqual(['en']);
    expect((await entry(first, 'de')).data.language).toBe('en');

    const before = await snapshot(h.db);
    const noEnglish = await save({
      version: '3',
      releaseDate: '2026-11-01',
      texts: { de: { title: 'T', markdown: 'x' } },
    });
    expect(noEnglish.status).toBe(400);
    expect(noEnglish.msg).toContain('texts');
    const blankTitle = await save({
      version: '3',
      releaseDate: '2026-11-01',
      texts: { en: { title: ' ', markdown: 'x' } },
    });
    expect(blankTitle.msg).toContain('texts.en.title');
    const badDate = await save({
      version: '3',
      releaseDate: '2026-02-30',
      texts: { en: { title: 'T', markdown: 'x' } },
    });
    expect(badDate).toMatchObject({ status: 400 });
    expect(badDate.msg).toContain('releaseDate');
    const badLanguage = await save({
      version: '3',
      releaseDate: '2026-11-01',
      texts: { xx: { title: 'T', markdown: 'x' } },
    });
    expect(badLanguage.msg).toContain('texts');
    expect(
      (
        await save({
          id: 999_999,
          version: '3',
          releaseDate: '2026-11-01',
          texts: { en: { title: 'T', markdown: 'x' } },
        })
      ).status,
    ).toBe(404);
    // Only the super administrator writes.
    expect(
      (
        await save(
          { version: '3', releaseDate: '2026-11-01', texts: { en: { title: 'T', markdown: 'x' } } },
          clinic.token,
        )
      ).status,
    ).toBe(403);
    expect((await h.call('software/update_log/delByIds', { token: lab.token, body: { ids: [first] } })).status).toBe(
      403,
    );
    expect(await snapshot(h.db)).toEqual(before);
  });

  it('shows the mark until the user opens the newest entry, and again for a newer one', async () => {
    expect((await mark(clinic)).data).toEqual({ latestId: latest, unseen: true });
    // Opening an older entry leaves the mark.
    expect((await h.call('software/update_log_read', { token: clinic.token, body: { id: first } })).data).toEqual({
      latestId: latest,
      unseen: true,
    });
    const opened = await h.call('software/update_log_read', { token: clinic.token, body: { id: latest } });
    expect(opened.data).toEqual({ latestId: latest, unseen: false });
    expect((await mark(clinic)).data.unseen).toBe(false);
    // Per user: the laboratory has not opened it.
    expect((await mark(lab)).data.unseen).toBe(true);
    expect((await h.call('software/update_log_read', { token: clinic.token, body: { id: 999_999 } })).status).toBe(404);

    const newer = await save({
      version: '2.6.0',
      releaseDate: '2026-11-23',
      texts: { en: { title: 'Newer', markdown: 'More.' } },
    });
    expect((await mark(clinic)).data).toEqual({ latestId: newer.data.id, unseen: true });
    expect(
      (await h.call('software/update_log/delByIds', { token: admin.token, body: { ids: [newer.data.id] } })).data.count,
    ).toBe(1);
    expect((await mark(clinic)).data).toEqual({ latestId: latest, unseen: false });
    expect((await h.call('software/update_log_mark', {})).status).toBe(401);
  });
});

describe('improvement programme', () => {
  const batch = [
    { kind: 'screen', screen: 'caseList', loadMs: 300 },
    { kind: 'screen', screen: 'caseList', loadMs: 500 },
    { kind: 'action', screen: 'caseList', action: 'case/create' },
    { kind: 'screen', screen: 'orderList' },
  ];

  it('refuses events from a user who has not joined, and stores nothing', async () => {
    expect((await h.call('user/info', { token: clinic.token })).data.improvementPlan).toBe(false);
    const before = await snapshot(h.db);
    const refused = await events(clinic, batch);
    expect(refused).toMatchObject({ status: 403, code: 2260 });
    expect(await snapshot(h.db)).toEqual(before);
  });

  it('counts a participant’s events per screen and week without anyone’s identity', async () => {
    expect((await h.call('user/participateImprovementPlan', { token: clinic.token })).data).toEqual({
      improvementPlan: true,
    });
    expect((await h.call('user/info', { token: clinic.token })).data.improvementPlan).toBe(true);
    expect((await events(clinic, batch)).data).toEqual({ accepted: 4 });
    await h.call('user/participateImprovementPlan', { token: lab.token });
    await events(lab, [{ kind: 'screen', screen: 'caseList', loadMs: 400 }]);

    const columns = await h.db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'usage_weekly'`,
    );
    expect(columns.map((c) => c.column_name).sort()).toEqual(
      ['action', 'events', 'kind', 'load_ms_total', 'load_samples', 'screen', 'week_start'].sort(),
    );

    const weekly = await h.call('usage/weekly', { token: admin.token, body: {} });
    expect(weekly.code).toBe(200);
    const monday = new Date();
    monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
    const week = monday.toISOString().slice(0, 10);
    expect(weekly.data.list).toEqual([
      { weekStart: week, screen: 'caseList', screenOpens: 3, actions: 1, averageLoadMs: 400 },
      { weekStart: week, screen: 'orderList', screenOpens: 1, actions: 0, averageLoadMs: null },
    ]);
    const one = await h.call('usage/weekly', { token: admin.token, body: { screen: 'orderList', weeks: 1 } });
    expect(one.data.list).toHaveLength(1);
    expect((await h.call('usage/weekly', { token: clinic.token, body: {} })).status).toBe(403);
  });

  it('bad batches name the field and change nothing', async () => {
    const before = await snapshot(h.db);
    const cases: Array<[unknown[], string]> = [
      [[], 'events'],
      [Array.from({ length: 51 }, () => batch[0]), 'events'],
      [[{ kind: 'screen', screen: '<script>' }], 'events.0.screen'],
      [[{ kind: 'click', screen: 'caseList' }], 'events.0.kind'],
      [[{ kind: 'screen', screen: 'caseList', loadMs: -1 }], 'events.0.loadMs'],
      [[{ kind: 'action', screen: 'caseList' }], 'events.0.action'],
    ];
    for (const [list, field] of cases) {
      const answer = await events(clinic, list);
      expect(answer.status, field).toBe(400);
      expect(answer.msg, field).toContain(field);
    }
    expect(await snapshot(h.db)).toEqual(before);
  });

  it('leaving stops the counting at once', async () => {
    expect((await h.call('user/cancelParticipateImprovementPlan', { token: clinic.token })).data).toEqual({
      improvementPlan: false,
    });
    const before = await snapshot(h.db);
    expect((await events(clinic, batch)).code).toBe(2260);
    expect(await snapshot(h.db)).toEqual(before);
  });
});

describe('system check speed test', () => {
  const upload = (payload: Buffer | string, contentType = 'application/octet-stream') =>
    h.app.inject({
      method: 'POST',
      url: '/api/v2/common/speed_test/upload',
      headers: { 'content-type': contentType },
      payload,
    });

  it('sends and receives the bytes asked for, within bounds that name the field', async () => {
    const down = await h.app.inject({ method: 'GET', url: '/api/v2/common/speed_test/download?bytes=65536' });
    expect(down.statusCode).toBe(200);
    expect(down.rawPayload.length).toBe(65536);
    expect(down.headers['cache-control']).toBe('no-store');
    for (const bytes of ['1', String(SPEED_TEST_MAX_BYTES + 1), 'many', '']) {
      const bad = await h.call(`common/speed_test/download?bytes=${bytes}`, { method: 'GET' });
      expect(bad.status, bytes).toBe(400);
      expect(bad.msg, bytes).toContain('bytes');
    }

    const up = await upload(Buffer.alloc(200_000, 7));
    expect(up.statusCode).toBe(200);
    expect(up.json().data.bytes).toBe(200_000);
    const empty = await upload(Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toContain('body');
    expect((await upload(Buffer.alloc(SPEED_TEST_MAX_BYTES + 1))).statusCode).toBe(413);
    const json = await upload('{"a":1}', 'application/json');
    expect(json.statusCode).toBe(400);
    expect(json.json().msg).toContain('body');
  });

  it('is rate limited per client address', async () => {
    let status = 200;
    for (let i = 0; i < 45 && status === 200; i++)
      status = (await h.app.inject({ method: 'GET', url: '/api/v2/common/speed_test/download?bytes=65536' }))
        .statusCode;
    expect(status).toBe(429);
  });
});
