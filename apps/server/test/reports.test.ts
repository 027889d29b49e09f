import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { OrgType, dateInTimeZone } from '@portal/contracts';
import { createHarness, createUser, login, type Harness } from './harness.js';
import { count, newCase, side, type Side } from './fixtures.js';
import { binaryStl, PNG, tusUpload } from './uploads.js';
import { inject, multipart } from './world.js';
import { pngImage } from './report-images.js';

/** Everything a refused report call must leave as it was. */
async function reportState(h: Harness) {
  const out: Record<string, unknown> = {};
  for (const table of ['reports', 'report_versions', 'report_snapshots', 'storage_accounts', 'blob_deletions'])
    out[table] = await h.db.query(`SELECT * FROM ${table} ORDER BY 1, 2`);
  return JSON.stringify(out);
}

async function pdfText(bytes: Buffer) {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const text = await page.getTextContent();
    pages.push(text.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  const first = await doc.getPage(1);
  const [, , width, height] = first.view;
  await doc.destroy();
  return { text: pages.join('\n'), width: Math.round(width!), height: Math.round(height!), pages: doc.numPages };
}

/**
 * Draws every page as a reader would (pdf.js on a canvas) and counts what shows: dark pixels (text) and colourful
 * ones (pictures, the category dots); page 1 as a PNG.
 */
async function pdfPixels(bytes: Buffer) {
  const doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  let dark = 0;
  let colourful = 0;
  let firstPage: Buffer | undefined;
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const viewport = page.getViewport({ scale: 1 });
    const factory = doc.canvasFactory as { create(width: number, height: number): unknown };
    const { canvas, context } = factory.create(viewport.width, viewport.height) as {
      canvas: { encode(format: 'png'): Promise<Buffer> };
      context: CanvasRenderingContext2D;
    };
    await page.render({ canvasContext: context, canvas: canvas as never, viewport }).promise;
    const { data } = context.getImageData(0, 0, viewport.width, viewport.height);
    for (let p = 0; p < data.length; p += 4) {
      const [r, g, b] = [data[p]!, data[p + 1]!, data[p + 2]!];
      if (r < 90 && g < 90 && b < 90) dark += 1;
      if (Math.max(r, g, b) - Math.min(r, g, b) > 60) colourful += 1;
    }
    firstPage ??= await canvas.encode('png');
  }
  await doc.destroy();
  return { dark, colourful, firstPage: firstPage! };
}

const EMPTY_RISK = { level: null, reason: '' };

describe('oral health reports', () => {
  let h: Harness;
  let base: string;
  let clinic: Side;
  let stranger: Side;
  let lab: Side;
  let caseCode: string;
  let otherCase: string;
  let files: { model: string; picture: string; otherPicture: string; strangerPicture: string };

  const call = (s: Side, path: string, body: Record<string, unknown>) => h.call(path, { token: s.token, body });
  const snapshotUpload = (
    s: Side,
    fields: Array<{ name: string; value: string }>,
    bytes: Buffer,
    filename = 'shot.png',
  ) =>
    inject(h, {
      url: '/api/v2/report/snapshot',
      token: s.token,
      ...multipart([...fields, { name: 'file', filename, bytes }]),
    });
  const newReport = async (s = clinic, c = caseCode) => {
    const made = await call(s, 'report/create', { caseCode: c });
    expect(made.code).toBe(200);
    return made.data.reportCode as string;
  };
  const fileCodes = async (s: Side, c: string) =>
    (await call(s, 'case/detail', { caseCode: c })).data.files as Array<{ fileCode: string; format: string }>;

  beforeAll(async () => {
    h = await createHarness();
    base = await h.listen();
    clinic = await side(h, OrgType.Clinic, 'ja');
    stranger = await side(h, OrgType.Clinic);
    lab = await side(h, OrgType.Lab);
    caseCode = await newCase(h, clinic, 'Check-up', 'Aiko Tanaka');
    otherCase = await newCase(h, clinic, 'Other', 'Ben Other');
    const strangerCase = await newCase(h, stranger, 'Theirs', 'Sam Stranger');
    await tusUpload(base, clinic.token, binaryStl(200), { caseCode, filename: 'upper.stl', jaw: 'upper' });
    await tusUpload(base, clinic.token, pngImage(320, 240, 1), { caseCode, filename: 'smile.png' });
    await tusUpload(base, clinic.token, PNG, { caseCode: otherCase, filename: 'other.png' });
    await tusUpload(base, stranger.token, PNG, { caseCode: strangerCase, filename: 'theirs.png' });
    const own = await fileCodes(clinic, caseCode);
    files = {
      model: own.find((f) => f.format === 'stl')!.fileCode,
      picture: own.find((f) => f.format === 'png')!.fileCode,
      otherPicture: (await fileCodes(clinic, otherCase))[0]!.fileCode,
      strangerPicture: (await fileCodes(stranger, strangerCase))[0]!.fileCode,
    };
  }, 60_000);
  afterAll(async () => h?.close());

  it("creates drafts per case in the author's language and numbering, several per case, newest first", async () => {
    await h.db.query(`UPDATE users SET tooth_numbering_system = 'universal' WHERE id = $1`, [clinic.userId]);
    const first = await newReport();
    const second = await call(clinic, 'report/create', { caseCode, title: 'Six-month check' });
    expect(second.data).toMatchObject({
      caseCode,
      title: 'Six-month check',
      status: 'draft',
      version: 0,
      language: 'ja',
      patientName: 'Aiko Tanaka',
      content: { language: 'ja', numbering: 'universal', findings: [], risks: { caries: EMPTY_RISK } },
      snapshots: [],
      versions: [],
    });
    const list = await call(clinic, 'report/list', { caseCode });
    expect(list.data.list.map((r: { reportCode: string }) => r.reportCode)).toEqual([second.data.reportCode, first]);
    expect((await call(clinic, 'report/list', { caseCode: otherCase })).data.list).toEqual([]);
    await h.db.query(`UPDATE users SET tooth_numbering_system = 'fdi' WHERE id = $1`, [clinic.userId]);
  });

  it('saves the draft as plain text with findings, risks, scans, pictures and snapshots', async () => {
    const reportCode = await newReport();
    const shot = await snapshotUpload(
      clinic,
      [
        { name: 'reportCode', value: reportCode },
        { name: 'view', value: 'upper' },
      ],
      pngImage(64, 48, 2, true),
    );
    expect(shot.statusCode).toBe(200);
    const snapshot = shot.json().data as { code: string; view: string; size: number };
    expect(snapshot.view).toBe('upper');
    const content = {
      title: 'Check-up <b>June</b>',
      language: 'ru',
      numbering: 'fdi',
      scans: [files.model],
      images: [
        { source: 'file', code: files.picture },
        { source: 'snapshot', code: snapshot.code },
      ],
      findings: [
        { tooth: 16, category: 'early_caries', note: 'Shallow lesion <script>alert(1)</script>distal' },
        { tooth: 21, category: 'aethetics', note: '' },
      ],
      risks: {
        caries: { level: 'high', reason: 'Frequent snacks' },
        periodontal: { level: 'low', reason: '' },
        wear: EMPTY_RISK,
        orthodontic: { level: 'medium', reason: 'Crowding 3 < 4 mm' },
      },
      recommendations: 'Floss daily',
      nextVisit: '2027-01-15',
      summary: 'Чистите зубы дважды в день.',
    };
    const saved = await call(clinic, 'report/save', { reportCode, content });
    expect(saved.code).toBe(200);
    expect(saved.data).toMatchObject({ title: 'Check-up June', language: 'ru', findingCount: 2, status: 'draft' });
    const detail = await call(clinic, 'report/detail', { reportCode });
    expect(detail.data.content).toEqual({
      ...content,
      title: 'Check-up June',
      findings: [
        { tooth: 16, category: 'early_caries', note: 'Shallow lesion distal' },
        { tooth: 21, category: 'aethetics', note: '' },
      ],
    });
    expect(detail.data.snapshots).toMatchObject([{ code: snapshot.code, view: 'upper', size: snapshot.size }]);

    // The patient's view: fixed labels in the report's language, pictures with captions.
    const view = await call(clinic, 'report/view', { reportCode });
    expect(view.data.labels).toMatchObject({
      title: 'Отчёт о здоровье полости рта',
      'categories.aethetics': 'Эстетика',
      'views.upper': 'Верхняя челюсть',
    });
    expect(view.data.images).toEqual([
      { source: 'file', code: files.picture, caption: 'smile.png' },
      { source: 'snapshot', code: snapshot.code, caption: 'Верхняя челюсть' },
    ]);
    const image = await inject(h, {
      url: '/api/v2/report/image',
      token: clinic.token,
      payload: JSON.stringify({ reportCode, source: 'snapshot', code: snapshot.code }),
      contentType: 'application/json',
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.subarray(0, 8)).toEqual(PNG.subarray(0, 8));
  });

  it('refuses bad drafts naming the field, and changes nothing', async () => {
    const reportCode = await newReport();
    const base = { language: 'en' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, images: [{ source: 'file', code: files.otherPicture }] }, 'content.images.0.code'],
      [{ ...base, images: [{ source: 'file', code: files.strangerPicture }] }, 'content.images.0.code'],
      [{ ...base, images: [{ source: 'file', code: files.model }] }, 'content.images.0.code'],
      [{ ...base, images: [{ source: 'snapshot', code: 'nope' }] }, 'content.images.0.code'],
      [{ ...base, scans: [files.picture] }, 'content.scans.0'],
      [{ ...base, findings: [{ tooth: 19, category: 'others' }] }, 'content.findings.0.tooth'],
      [{ ...base, findings: [{ tooth: 11, category: 'aesthetics' }] }, 'content.findings.0.category'],
      [
        {
          ...base,
          findings: [
            { tooth: 11, category: 'others' },
            { tooth: 11, category: 'others' },
          ],
        },
        'content.findings.1.tooth',
      ],
      [{ ...base, risks: { caries: { level: 'extreme' } } }, 'content.risks.caries.level'],
      [{ ...base, nextVisit: '2027-02-30' }, 'content.nextVisit'],
      [{ ...base, language: 'xx' }, 'content.language'],
      [{ ...base, summary: 'x'.repeat(4001) }, 'content.summary'],
    ];
    const before = await reportState(h);
    for (const [content, field] of cases) {
      const res = await call(clinic, 'report/save', { reportCode, content });
      expect([res.status, res.code, res.data?.field], field).toEqual([400, 400, field]);
    }
    expect(await reportState(h)).toBe(before);
  });

  it('publishes versions: a summary is needed, an unchanged draft makes none, each version stays as it was', async () => {
    const reportCode = await newReport();
    const before = await reportState(h);
    const empty = await call(clinic, 'report/publish', { reportCode });
    expect([empty.status, empty.data?.field]).toEqual([400, 'content.summary']);
    expect(await reportState(h)).toBe(before);

    const draft = (summary: string) => ({ language: 'en', summary, findings: [{ tooth: 36, category: 'preventive' }] });
    await call(clinic, 'report/save', { reportCode, content: draft('Keep brushing.') });
    const v1 = await call(clinic, 'report/publish', { reportCode });
    expect(v1.data).toMatchObject({ status: 'published', version: 1, changedSincePublished: false });
    expect(v1.data.versions).toMatchObject([{ version: 1, publishedBy: expect.any(String) }]);
    expect((await call(clinic, 'report/publish', { reportCode })).data.version).toBe(1);

    await call(clinic, 'report/save', { reportCode, content: draft('Brush twice a day.') });
    expect((await call(clinic, 'report/detail', { reportCode })).data.changedSincePublished).toBe(true);
    const v2 = await call(clinic, 'report/publish', { reportCode });
    expect(v2.data.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect((await call(clinic, 'report/view', { reportCode, version: 1 })).data.content.summary).toBe('Keep brushing.');
    expect((await call(clinic, 'report/view', { reportCode, version: 2 })).data).toMatchObject({
      version: 2,
      content: { summary: 'Brush twice a day.' },
    });
    const missing = await call(clinic, 'report/view', { reportCode, version: 3 });
    expect([missing.status, missing.code]).toEqual([404, 404]);
  });

  it('shares by link once published: the latest version, pictures and PDF by signed links, 2009 once ended', async () => {
    const reportCode = await newReport();
    const share = (over: Record<string, unknown> = {}) =>
      call(clinic, 'share/create', { resourceType: 'report', resourceCode: reportCode, expiresInDays: 30, ...over });
    // A draft is never shared; nothing is made.
    const before = await count(h, 'shares');
    const early = await share();
    expect([early.status, early.code]).toEqual([409, 2010]);
    expect(await count(h, 'shares')).toBe(before);

    const content = (summary: string) => ({
      language: 'de',
      summary,
      findings: [{ tooth: 16, category: 'early_caries', note: 'Occlusal' }],
      images: [{ source: 'file', code: files.picture }],
    });
    expect((await call(clinic, 'report/save', { reportCode, content: content('Zweimal täglich putzen.') })).code).toBe(
      200,
    );
    expect((await call(clinic, 'report/publish', { reportCode })).code).toBe(200);
    const made = await share({ showPatientName: true });
    expect(made.data).toMatchObject({ resourceType: 'report', status: 'active', remainingDays: 30 });
    expect(made.data.url).toBe(`http://portal.test/share/report?code=${made.data.shareCode}`);
    // Mailed to the patient in their language, with the report's own wording.
    const mailed = await call(clinic, 'share/sendMail', {
      shareCode: made.data.shareCode,
      email: 'patient@example.test',
      language: 'fr',
    });
    expect(mailed.code).toBe(200);
    const [mail] = await h.db.query<{ subject: string; body_text: string }>(
      `SELECT subject, body_text FROM mail_outbox WHERE to_address = 'patient@example.test' ORDER BY id DESC`,
    );
    expect(mail!.subject).toContain('a partagé un bilan bucco-dentaire avec vous');
    expect(mail!.body_text).toContain(made.data.url);
    // Another organization can neither share nor list it.
    expect((await call(stranger, 'share/create', { resourceType: 'report', resourceCode: reportCode })).code).toBe(404);

    // The visitor sees the latest published version, never the draft saved since.
    await call(clinic, 'report/save', { reportCode, content: content('Noch nicht veröffentlicht.') });
    const open = () => h.call('share/open', { body: { code: made.data.shareCode } });
    const opened = await open();
    expect(opened.data).toMatchObject({
      resourceType: 'report',
      locked: false,
      case: null,
      order: null,
      files: [],
      report: { version: 1, patientName: 'Aiko Tanaka', content: { summary: 'Zweimal täglich putzen.' } },
    });
    expect(opened.data.report.labels.findings).toBe('Befunde');
    const fetchLink = async (link: string) => {
      const u = new URL(link);
      const res = await fetch(`${base}${u.pathname}${u.search}`);
      return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
    };
    const [image] = opened.data.report.images;
    const picture = await fetchLink(image.url);
    expect([picture.status, picture.type]).toEqual([200, 'image/png']);
    expect(picture.bytes.subarray(1, 4).toString()).toBe('PNG');
    // A link names its picture: another of the case's files under the same signature is refused.
    expect((await fetchLink(image.url.replace(files.picture, files.model))).status).toBe(404);
    const pdf = await fetchLink(opened.data.report.pdfUrl);
    expect([pdf.status, pdf.type]).toEqual([200, 'application/pdf']);
    expect((await pdfText(pdf.bytes)).text).toContain('Zweimal täglich putzen.');
    const log = await call(clinic, 'share/accessLog', { shareCode: made.data.shareCode });
    expect(log.data.list.map((e: { kind: string }) => e.kind).sort()).toEqual(['page', 'pdf']);

    // Re-published: the same link shows the new version.
    await call(clinic, 'report/publish', { reportCode });
    expect((await open()).data.report).toMatchObject({
      version: 2,
      content: { summary: 'Noch nicht veröffentlicht.' },
    });
    // Without the sharer's tick, no patient name anywhere in the answer.
    const anonymous = await share();
    const plain = await h.call('share/open', { body: { code: anonymous.data.shareCode } });
    expect(plain.data.report.patientName).toBeNull();
    expect(JSON.stringify(plain.data)).not.toContain('Aiko');

    // Ended: the page, the pictures and the PDF answer 2009 and name the clinic.
    await call(clinic, 'share/revoke', { shareCode: made.data.shareCode });
    const ended = await open();
    expect([ended.status, ended.code]).toEqual([410, 2009]);
    expect(ended.data.organizationName).toBe(opened.data.organizationName);
    for (const link of [image.url, opened.data.report.pdfUrl]) {
      const refused = await fetchLink(link);
      expect([refused.status, JSON.parse(refused.bytes.toString()).code]).toEqual([410, 2009]);
    }
    // A deleted report ends its links too.
    await call(clinic, 'report/delete', { reportCode });
    expect((await h.call('share/open', { body: { code: anonymous.data.shareCode } })).code).toBe(2009);
  });

  it('stores snapshots as checked PNGs counted against the storage, and frees them with the report', async () => {
    const reportCode = await newReport();
    const used = async () =>
      Number(
        (
          await h.db.query<{ used_bytes: string }>(
            'SELECT used_bytes FROM storage_accounts WHERE organization_id = $1',
            [clinic.organizationId],
          )
        )[0]!.used_bytes,
      );
    const start = await used();
    const fields = (view: string) => [
      { name: 'reportCode', value: reportCode },
      { name: 'view', value: view },
    ];
    const before = await reportState(h);
    const notPng = await snapshotUpload(clinic, fields('bite'), Buffer.from('<svg onload="alert(1)"></svg>'));
    expect([notPng.statusCode, notPng.json().code]).toEqual([415, 2026]);
    const badView = await snapshotUpload(clinic, fields('side'), pngImage(8, 8));
    expect([badView.statusCode, badView.json().data.field]).toEqual([400, 'view']);
    const noReport = await snapshotUpload(clinic, [{ name: 'view', value: 'bite' }], pngImage(8, 8));
    expect([noReport.statusCode, noReport.json().data.field]).toEqual([400, 'reportCode']);
    expect(await reportState(h)).toBe(before);

    const bite = (await snapshotUpload(clinic, fields('bite'), pngImage(40, 30, 3))).json().data;
    const lower = (await snapshotUpload(clinic, fields('lower'), pngImage(40, 30, 4))).json().data;
    expect(await used()).toBe(start + bite.size + lower.size);

    await call(clinic, 'report/save', {
      reportCode,
      content: { language: 'en', images: [{ source: 'snapshot', code: bite.code }] },
    });
    expect((await call(clinic, 'report/snapshot/delete', { reportCode, snapshotCode: bite.code })).code).toBe(200);
    expect((await call(clinic, 'report/detail', { reportCode })).data.content.images).toEqual([]);
    expect(await used()).toBe(start + lower.size);
    const gone = await call(clinic, 'report/snapshot/delete', { reportCode, snapshotCode: bite.code });
    expect(gone.status).toBe(404);

    expect((await call(clinic, 'report/delete', { reportCode })).code).toBe(200);
    expect(await used()).toBe(start);
    expect(await count(h, 'report_snapshots WHERE report_id NOT IN (SELECT id FROM reports)')).toBe(0);
    expect(await count(h, 'blob_deletions')).toBe(0);
    expect((await call(clinic, 'report/detail', { reportCode })).status).toBe(404);
  });

  it("answers another organization's reports and cases with 404 and changes nothing", async () => {
    const reportCode = await newReport();
    const shot = (
      await snapshotUpload(
        clinic,
        [
          { name: 'reportCode', value: reportCode },
          { name: 'view', value: 'bite' },
        ],
        pngImage(16, 16),
      )
    ).json().data;
    const before = await reportState(h);
    const requests: Array<[string, Record<string, unknown>]> = [
      ['report/list', { caseCode }],
      ['report/create', { caseCode }],
      ['report/detail', { reportCode }],
      ['report/save', { reportCode, content: { language: 'en', summary: 'x' } }],
      ['report/publish', { reportCode }],
      ['report/delete', { reportCode }],
      ['report/view', { reportCode }],
      ['report/image', { reportCode, source: 'snapshot', code: shot.code }],
      ['report/pdf', { reportCode }],
      ['report/snapshot/delete', { reportCode, snapshotCode: shot.code }],
    ];
    for (const [path, body] of requests) {
      const res = await call(stranger, path, body);
      expect([res.status, res.code], path).toEqual([404, 404]);
    }
    const upload = await snapshotUpload(
      stranger,
      [
        { name: 'reportCode', value: reportCode },
        { name: 'view', value: 'bite' },
      ],
      pngImage(16, 16),
    );
    expect(upload.statusCode).toBe(404);
    // A picture of another case of the same organization is not the report's either.
    const other = await call(clinic, 'report/image', { reportCode, source: 'file', code: files.otherPicture });
    expect(other.status).toBe(404);
    // Laboratories do not write oral health reports.
    const labCall = await call(lab, 'report/list', { caseCode });
    expect([labCall.status, labCall.code]).toEqual([403, 1002]);
    expect(await reportState(h)).toBe(before);
  });

  it('frees the snapshots of a case purged from the recycle bin', async () => {
    const purged = await newCase(h, clinic, 'To purge', 'Pia Purge');
    const reportCode = await newReport(clinic, purged);
    await snapshotUpload(
      clinic,
      [
        { name: 'reportCode', value: reportCode },
        { name: 'view', value: 'bite' },
      ],
      pngImage(16, 16),
    );
    expect(
      await count(h, 'report_snapshots s JOIN reports r ON r.id = s.report_id WHERE r.code = $1', [reportCode]),
    ).toBe(1);
    await call(clinic, 'case/delete', { caseCodes: [purged] });
    expect((await call(clinic, 'report/detail', { reportCode })).status).toBe(404);
    await call(clinic, 'case/purge', { caseCodes: [purged] });
    expect(await count(h, 'reports WHERE code = $1', [reportCode])).toBe(0);
    // The trigger listed the blob in the purge's transaction; the upkeep sweeps it.
    expect(await count(h, 'blob_deletions WHERE key LIKE $1', ['reports/%'])).toBe(1);
  });

  describe('PDF', () => {
    const summaries: Record<string, string> = {
      ja: '毎日、就寝前に丁寧に歯を磨いてください。',
      ru: 'Чистите зубы дважды в день и пользуйтесь зубной нитью.',
      el: 'Βουρτσίζετε τα δόντια σας δύο φορές την ημέρα.',
      en: 'Brush twice a day and floss every evening.',
    };
    const titles: Record<string, string> = {
      ja: '口腔健康レポート',
      ru: 'Отчёт о здоровье полости рта',
      el: 'Έκθεση στοματικής υγείας',
      en: 'Oral health report',
    };

    it.each(Object.keys(summaries))('%s: the summary, labels and findings are real text in the PDF', async (lang) => {
      const reportCode = await newReport();
      await call(clinic, 'report/save', {
        reportCode,
        content: {
          language: lang,
          summary: summaries[lang],
          findings: [{ tooth: 16, category: 'aethetics', note: 'Lumière 光 Ω' }],
          images: [{ source: 'file', code: files.picture }],
        },
      });
      const res = await inject(h, {
        url: '/api/v2/report/pdf',
        token: clinic.token,
        payload: JSON.stringify({ reportCode }),
        contentType: 'application/json',
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename\*=UTF-8''.+\.pdf$/);
      const pdf = res.rawPayload;
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const { text, width, height } = await pdfText(pdf);
      const squeeze = (s: string) => s.replace(/\s+/g, '');
      expect(squeeze(text)).toContain(squeeze(summaries[lang]!));
      expect(squeeze(text)).toContain(squeeze(titles[lang]!));
      expect(squeeze(text)).toContain(squeeze('Lumière 光 Ω'));
      // The organization is in the US and Canada region: Letter.
      expect([width, height]).toEqual([612, 792]);
      // Fonts are embedded as subsets (a tag before the name), never referenced from the reader's system.
      const raw = pdf.toString('latin1');
      expect(raw).toMatch(/\/FontFile[23]?/);
      expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+/);
      expect(raw).not.toMatch(/\/JavaScript|\/JS\b/);
      expect(pdf.length).toBeLessThan(1_500_000);
      // Drawn as a reader draws it: the text shows, and so does the picture (about 233 × 175 px at this scale).
      const drawn = await pdfPixels(pdf);
      expect(drawn.firstPage.subarray(1, 4).toString()).toBe('PNG');
      expect(drawn.dark).toBeGreaterThan(2_000);
      expect(drawn.colourful).toBeGreaterThan(20_000);
    });

    it('names the tooth numbering its findings are written in, and prints none without findings', async () => {
      const reportCode = await newReport();
      const printed = async (content: Record<string, unknown>) => {
        await call(clinic, 'report/save', { reportCode, content: { language: 'en', ...content } });
        const res = await inject(h, {
          url: '/api/v2/report/pdf',
          token: clinic.token,
          payload: JSON.stringify({ reportCode }),
          contentType: 'application/json',
        });
        return (await pdfText(res.rawPayload)).text;
      };
      const finding = [{ tooth: 16, category: 'early_caries', note: 'Occlusal' }];
      const universal = await printed({ numbering: 'universal', findings: finding });
      expect(universal).toContain('Tooth numbering: Universal');
      expect(universal).toContain('Tooth 3');
      const fdi = await printed({ numbering: 'fdi', findings: finding });
      expect(fdi).toContain('Tooth numbering: FDI');
      expect(fdi).toContain('Tooth 16');
      expect(await printed({ numbering: 'fdi', findings: [] })).not.toContain('Tooth numbering');
    });

    it("prints a version's publication day in the publisher's timezone, and a draft's day in the reader's", async () => {
      // Kiritimati (UTC+14) and Pago Pago (UTC−11) never share a day: whichever day this runs, they print apart.
      const today = (zone: string) => dateInTimeZone(new Date(), zone);
      const reportCode = await newReport();
      await call(clinic, 'report/save', { reportCode, content: { language: 'en', summary: 'Dated.' } });
      const published = await h.call('report/publish', {
        token: clinic.token,
        body: { reportCode },
        headers: { timezone: 'Pacific/Kiritimati' },
      });
      expect(published.data.version).toBe(1);
      const printed = async (version: number | undefined, timezone: string) => {
        const res = await h.app.inject({
          method: 'POST',
          url: '/api/v2/report/pdf',
          headers: { authorization: `Bearer ${clinic.token}`, 'content-type': 'application/json', timezone },
          payload: JSON.stringify({ reportCode, version }),
        });
        return (await pdfText(res.rawPayload)).text;
      };
      // The version keeps the publisher's day, whoever reads it; the draft is dated in the reader's.
      expect(await printed(1, 'Pacific/Pago_Pago')).toContain(`Date: ${today('Pacific/Kiritimati')}`);
      expect(await printed(undefined, 'Pacific/Pago_Pago')).toContain(`Date: ${today('Pacific/Pago_Pago')}`);
    });

    it('is A4 outside the US and Canada region, and the sanitized text holds no script', async () => {
      const eu = await createUser(h.db, { orgType: OrgType.Clinic, region: 'eu' });
      const token = (await login(h, eu.account)).accessToken;
      const euSide = { ...clinic, token };
      const euCase = await newCase(h, euSide, 'EU', 'Eva Euro');
      const reportCode = await newReport(euSide, euCase);
      await call(euSide, 'report/save', {
        reportCode,
        content: { language: 'el', summary: 'Καλή <script>alert("x")</script>υγεία' },
      });
      const res = await inject(h, {
        url: '/api/v2/report/pdf',
        token,
        payload: JSON.stringify({ reportCode }),
        contentType: 'application/json',
      });
      const { text, width, height } = await pdfText(res.rawPayload);
      expect([width, height]).toEqual([595, 842]);
      expect(text).toContain('Καλή υγεία');
      expect(text).not.toContain('alert');
    });
  });
});
