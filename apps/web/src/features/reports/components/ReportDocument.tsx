import type { ReactNode } from 'react';
import { Card, Empty, Tag, Typography } from 'antd';
import {
  DIAGNOSIS_COLORS,
  RISK_AREAS,
  RISK_COLORS,
  toothLabel,
  type ReportImageRef,
  type ReportView,
} from '@portal/contracts';

/**
 * The report as the patient sees it, always in the light theme's colours: the fixed labels come with the report in
 * its own language (from the server, the same as the PDF's); the dentist's text is shown as written.
 */
export function ReportDocument({
  view,
  renderImage,
}: {
  /** A shared report's patient name is null unless the sharer chose to show it. */
  view: Omit<ReportView, 'patientName'> & { patientName: string | null };
  renderImage: (image: ReportImageRef & { caption: string }) => ReactNode;
}) {
  const { content, labels } = view;
  const l = (key: string) => labels[key] ?? key;
  return (
    <article lang={content.language} data-testid="report-document" style={{ display: 'grid', gap: 16 }}>
      <header>
        <Typography.Title level={2} style={{ marginBottom: 4 }} data-testid="report-title">
          {content.title || l('title')}
        </Typography.Title>
        {content.title ? <Typography.Text type="secondary">{l('title')}</Typography.Text> : null}
        <dl style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '2px 12px', margin: '12px 0 0' }}>
          {view.patientName !== null ? (
            <>
              <dt>{l('patient')}</dt>
              <dd style={{ margin: 0 }}>{view.patientName}</dd>
            </>
          ) : null}
          <dt>{l('clinic')}</dt>
          <dd style={{ margin: 0 }}>{view.organizationName}</dd>
          <dt>{l('version')}</dt>
          <dd style={{ margin: 0 }}>{view.version ? view.version : l('draft')}</dd>
        </dl>
      </header>

      {content.summary ? (
        <Card title={l('summary')} size="small">
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }} data-testid="report-summary">
            {content.summary}
          </Typography.Paragraph>
        </Card>
      ) : null}

      <Card title={l('findings')} size="small">
        {content.findings.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={l('noFindings')} />
        ) : (
          <ul style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: 8 }}>
            {content.findings.map((f) => (
              <li key={`${f.tooth}-${f.category}`} data-testid={`report-finding-${f.tooth}`}>
                <Tag color={DIAGNOSIS_COLORS[f.category].light}>{l(`categories.${f.category}`)}</Tag>
                <strong>
                  {l('tooth')} {toothLabel(f.tooth, content.numbering)}
                </strong>
                {f.note ? <div style={{ whiteSpace: 'pre-wrap', marginTop: 2 }}>{f.note}</div> : null}
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card title={l('risks')} size="small">
        <ul style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: 8 }}>
          {RISK_AREAS.map((area) => {
            const risk = content.risks[area];
            return (
              <li key={area}>
                <strong>{l(`riskAreas.${area}`)}: </strong>
                {risk.level ? (
                  <Tag color={RISK_COLORS[risk.level]}>{l(`levels.${risk.level}`)}</Tag>
                ) : (
                  <Typography.Text type="secondary">{l('notAssessed')}</Typography.Text>
                )}
                {risk.reason ? <div style={{ whiteSpace: 'pre-wrap' }}>{risk.reason}</div> : null}
              </li>
            );
          })}
        </ul>
      </Card>

      {content.recommendations ? (
        <Card title={l('recommendations')} size="small">
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
            {content.recommendations}
          </Typography.Paragraph>
        </Card>
      ) : null}
      {content.nextVisit ? (
        <Card title={l('nextVisit')} size="small">
          {content.nextVisit}
        </Card>
      ) : null}
      {view.images.length ? (
        <Card title={l('images')} size="small">
          <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 12 }}>
            {view.images.map((image) => (
              <figure key={`${image.source}-${image.code}`} style={{ margin: 0 }}>
                {renderImage(image)}
                <figcaption style={{ fontSize: 12, color: '#595959', marginTop: 4, overflowWrap: 'anywhere' }}>
                  {image.caption}
                </figcaption>
              </figure>
            ))}
          </div>
        </Card>
      ) : null}
    </article>
  );
}
