import type { ReportContent } from '@portal/contracts';

/**
 * The dentist's text as plain text: markup is dropped (a script or style element with its content, any other tag
 * without its content), so nothing in a report can run where it is shown. "a < b" and "3 > 2" stay as written.
 */
export function plainText(value: string): string {
  return value
    .replace(/<(script|style|iframe|object|embed)\b[^>]*>[\s\S]*?(<\/\1\s*>|$)/gi, '')
    .replace(/<\/?[a-zA-Z!][^<>]*>/g, '')
    .trim();
}

/** Every free text of a report made plain. */
export function plainContent(content: ReportContent): ReportContent {
  return {
    ...content,
    title: plainText(content.title),
    findings: content.findings.map((f) => ({ ...f, note: plainText(f.note) })),
    risks: Object.fromEntries(
      Object.entries(content.risks).map(([area, risk]) => [area, { ...risk, reason: plainText(risk.reason) }]),
    ) as ReportContent['risks'],
    recommendations: plainText(content.recommendations),
    summary: plainText(content.summary),
  };
}
