import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import * as fontkit from 'fontkit';
import { DIAGNOSIS_COLORS, RISK_AREAS, RISK_COLORS, toothLabel, type ReportContent } from '@portal/contracts';
import { printImage } from './print-image.js';

/** Everything the PDF shows, prepared by the service (labels already in the report's language). */
export interface PdfModel {
  content: ReportContent;
  labels: Record<string, string>;
  patientName: string;
  organizationName: string;
  /** 'A4', or 'LETTER' for organizations of the US and Canada region. */
  paper: 'A4' | 'LETTER';
  /** The version shown, 0 for the draft. */
  version: number;
  /** The date printed on the report (YYYY-MM-DD). */
  date: string;
  images: { caption: string; bytes: Uint8Array }[];
}

type Script = 'latin' | 'jp' | 'sc' | 'tc';
type Weight = 'regular' | 'bold';

const require = createRequire(import.meta.url);
/** Noto fonts from npm packages (no download at run time): Noto Sans covers Latin, Greek and Cyrillic. */
const FONT_FILES: Record<Script, { pkg: string; regular: string; bold: string }> = {
  latin: { pkg: '@embedpdf/fonts-latin', regular: 'NotoSans-Regular.ttf', bold: 'NotoSans-Bold.ttf' },
  jp: { pkg: '@embedpdf/fonts-jp', regular: 'NotoSansJP-Regular.otf', bold: 'NotoSansJP-Bold.otf' },
  sc: { pkg: '@embedpdf/fonts-sc', regular: 'NotoSansHans-Regular.otf', bold: 'NotoSansHans-Bold.otf' },
  tc: { pkg: '@embedpdf/fonts-tc', regular: 'NotoSansHant-Regular.otf', bold: 'NotoSansHant-Bold.otf' },
};

/**
 * Parsed fonts are kept for the life of the process: parsing a CJK font's outlines for the first subset costs
 * hundreds of milliseconds, a warm subset tens. pdfkit opens a font through fontkit.create; the format registered
 * here answers a small token buffer with the kept font, so every document subsets the same parsed font.
 */
const TOKEN = Buffer.from('PORTALFONT:');
const parsed = new Map<string, fontkit.Font>();
class KeptFontFormat {
  static probe(buffer: Uint8Array) {
    return buffer.length < 64 && Buffer.from(buffer.subarray(0, TOKEN.length)).equals(TOKEN);
  }
  constructor(stream: { buffer: Uint8Array }) {
    const font = parsed.get(Buffer.from(stream.buffer).subarray(TOKEN.length).toString());
    if (!font) throw new Error('font not kept');
    return font;
  }
}
// fontkit has an ES module and a CommonJS build, each with its own list of formats; pdfkit loads whichever its own
// build imports, so both learn the format.
for (const kit of [fontkit, require('fontkit')] as Array<{ registerFormat(format: unknown): void }>)
  kit.registerFormat(KeptFontFormat);

function fontOf(script: Script, weight: Weight): { id: string; font: fontkit.Font } {
  const id = `${script}-${weight}`;
  let font = parsed.get(id);
  if (!font) {
    const spec = FONT_FILES[script];
    const dir = require.resolve(spec.pkg).replace(/dist[\\/]index\.cjs$/, 'fonts');
    font = fontkit.create(readFileSync(`${dir}/${spec[weight]}`)) as fontkit.Font;
    parsed.set(id, font);
  }
  return { id, font };
}

function primaryScript(language: string): Script {
  if (language === 'ja') return 'jp';
  if (language === 'zh-CN') return 'sc';
  if (language === 'zh-TW') return 'tc';
  return 'latin';
}

/**
 * Splits text into runs of one font each: the report language's font first, then the others, so a Japanese name in
 * a Greek report still renders. Spaces and punctuation stay with the run they are in.
 */
export function fontRuns(text: string, language: string): { script: Script; text: string }[] {
  const primary = primaryScript(language);
  const order: Script[] = [primary, ...(['latin', 'jp', 'sc', 'tc'] as const).filter((s) => s !== primary)];
  const runs: { script: Script; text: string }[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const neutral = /\s/.test(ch);
    const script =
      neutral && runs.length
        ? runs[runs.length - 1]!.script
        : (order.find((s) => fontOf(s, 'regular').font.hasGlyphForCodePoint(cp)) ?? primary);
    const last = runs[runs.length - 1];
    if (last && last.script === script) last.text += ch;
    else runs.push({ script, text: ch });
  }
  return runs;
}

const INK = '#1f1f1f';
const MUTED = '#595959';
const RULE = '#d9d9d9';

/** Renders the report as a PDF: fonts embedded and subset, pictures embedded, nothing but text and images. */
export async function renderReportPdf(model: PdfModel): Promise<Buffer> {
  const { content, labels } = model;
  const pictures = await Promise.all(model.images.map((image) => printImage(image.bytes)));
  const language = content.language;
  const doc = new PDFDocument({
    size: model.paper,
    margins: { top: 56, bottom: 56, left: 56, right: 56 },
    bufferPages: true,
    info: { Title: content.title || labels.title!, Author: model.organizationName, Creator: model.organizationName },
    lang: language,
    displayTitle: true,
    // No standard font: every text is written with an embedded one.
    font: null as unknown as string,
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const registered = new Set<string>();
  const useFont = (script: Script, weight: Weight) => {
    const { id } = fontOf(script, weight);
    if (!registered.has(id)) {
      // fontkit keeps each glyph with the characters it was first made for; a glyph a previous document's subset
      // made has none, and this document's text map would lose them. The parsed tables stay.
      (fontOf(script, weight).font as unknown as { _glyphs: object })._glyphs = {};
      doc.registerFont(id, Buffer.concat([TOKEN, Buffer.from(id)]));
      registered.add(id);
    }
    doc.font(id);
  };
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;

  /** Writes text in as many font runs as it needs, as one paragraph. */
  const write = (
    text: string,
    opts: { size?: number; weight?: Weight; color?: string; x?: number; width?: number; gap?: number } = {},
  ) => {
    const runs = fontRuns(text || ' ', language);
    doc.fontSize(opts.size ?? 10.5).fillColor(opts.color ?? INK);
    runs.forEach((run, i) => {
      useFont(run.script, opts.weight ?? 'regular');
      const last = i === runs.length - 1;
      const options = { continued: !last, width: opts.width ?? width, lineGap: 2 };
      if (i === 0 && opts.x !== undefined) doc.text(run.text, opts.x, doc.y, options);
      else doc.text(run.text, options);
    });
    if (opts.gap) doc.moveDown(opts.gap);
  };
  const heading = (text: string) => {
    if (doc.y > doc.page.height - doc.page.margins.bottom - 60) doc.addPage();
    doc.moveDown(0.6);
    write(text, { size: 13, weight: 'bold', gap: 0.2 });
    const y = doc.y;
    doc
      .moveTo(doc.page.margins.left, y)
      .lineTo(doc.page.margins.left + width, y)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.moveDown(0.4);
  };
  const left = doc.page.margins.left;

  // Title block
  write(content.title || labels.title!, { size: 20, weight: 'bold', gap: content.title ? 0 : 0.4 });
  if (content.title) write(labels.title!, { size: 10, color: MUTED, gap: 0.4 });
  write(`${labels.patient}: ${model.patientName}`);
  write(`${labels.clinic}: ${model.organizationName}`);
  write(`${labels.date}: ${model.date}`);
  // The findings' tooth numbers read differently in FDI and Universal: the report says which it uses.
  if (content.findings.length) write(labels[`numbering.${content.numbering}`]!);
  write(model.version ? `${labels.version}: ${model.version}` : labels.draft!, { color: MUTED });

  if (content.summary) {
    heading(labels.summary!);
    write(content.summary);
  }

  heading(labels.findings!);
  if (!content.findings.length) write(labels.noFindings!, { color: MUTED });
  for (const f of content.findings) {
    if (doc.y > doc.page.height - doc.page.margins.bottom - 40) doc.addPage();
    const y = doc.y;
    doc.circle(left + 5, y + 7, 4.5).fill(DIAGNOSIS_COLORS[f.category].light);
    write(
      `${labels.tooth} ${toothLabel(f.tooth, content.numbering)} · ${labels[`categories.${f.category}`] ?? f.category}`,
      { weight: 'bold', x: left + 16, width: width - 16 },
    );
    if (f.note) write(f.note, { x: left + 16, width: width - 16, color: INK });
    doc.x = left;
    doc.moveDown(0.3);
  }

  heading(labels.risks!);
  for (const area of RISK_AREAS) {
    const risk = content.risks[area];
    if (doc.y > doc.page.height - doc.page.margins.bottom - 40) doc.addPage();
    const level = risk.level ? labels[`levels.${risk.level}`]! : labels.notAssessed!;
    const y = doc.y;
    doc.rect(left, y + 3, 8, 8).fill(risk.level ? RISK_COLORS[risk.level] : RULE);
    write(`${labels[`riskAreas.${area}`]}: ${level}`, { weight: 'bold', x: left + 16, width: width - 16 });
    if (risk.reason) write(risk.reason, { x: left + 16, width: width - 16 });
    doc.x = left;
    doc.moveDown(0.3);
  }

  if (content.recommendations) {
    heading(labels.recommendations!);
    write(content.recommendations);
  }
  if (content.nextVisit) {
    heading(labels.nextVisit!);
    write(content.nextVisit);
  }

  if (model.images.length) {
    heading(labels.images!);
    const cell = (width - 16) / 2;
    const boxHeight = cell * 0.75;
    let column = 0;
    for (const [i, image] of model.images.entries()) {
      if (column === 0 && doc.y + boxHeight + 30 > doc.page.height - doc.page.margins.bottom) doc.addPage();
      const x = left + column * (cell + 16);
      const y = doc.y;
      const picture = pictures[i];
      if (picture) doc.image(picture, x, y, { fit: [cell, boxHeight], align: 'center', valign: 'center' });
      else doc.rect(x, y, cell, boxHeight).lineWidth(0.5).strokeColor(RULE).stroke();
      doc.y = y + boxHeight + 4;
      write(image.caption, { size: 9, color: MUTED, x, width: cell });
      if (column === 0) {
        doc.y = y;
        column = 1;
      } else {
        column = 0;
        doc.x = left;
        doc.y = Math.max(doc.y, y + boxHeight + 24) + 8;
      }
    }
    if (column === 1) doc.y = doc.y + boxHeight + 32;
  }

  // Page numbers
  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const text = (labels.page ?? '{{n}} / {{total}}')
      .replace('{{n}}', String(i + 1))
      .replace('{{total}}', String(range.count));
    useFont(primaryScript(language), 'regular');
    doc
      .fontSize(8)
      .fillColor(MUTED)
      .text(text, left, doc.page.height - 36, {
        width,
        align: 'center',
        lineBreak: false,
      });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return finished;
}
