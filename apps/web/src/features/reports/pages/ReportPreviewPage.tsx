import { useState } from 'react';
import { Button, Result, Space, Spin } from 'antd';
import ArrowLeftOutlined from '@ant-design/icons/ArrowLeftOutlined';
import FilePdfOutlined from '@ant-design/icons/FilePdfOutlined';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/session';
import { reportView } from '../api/reports';
import { reportKeys } from '../api/keys';
import { ReportDocument } from '../components/ReportDocument';
import { ReportImage } from '../components/ReportImage';
import { downloadReportPdf } from '../lib/pdf';
import { reportDesignPath } from '../lib/paths';

/** The translation namespaces the route loads with this page (before it draws, so no key shows raw). */
export const namespaces = ['reports'];

/**
 * The report as the patient will see it (light theme, no progress bar): the draft, or a published version
 * (?version=). Its fixed labels are in the report's patient language, whatever the interface's language.
 */
export default function ReportPreviewPage() {
  const { t } = useTranslation('reports');
  const { signedIn } = useSession();
  const [params] = useSearchParams();
  const reportCode = params.get('report') ?? '';
  const version = Number(params.get('version')) || undefined;
  const [downloading, setDownloading] = useState(false);
  const view = useQuery({
    queryKey: reportKeys.view(reportCode, version),
    queryFn: () => reportView(reportCode, version),
    enabled: signedIn && reportCode !== '',
    retry: false,
  });

  let body;
  if (!signedIn || !reportCode || view.isError) body = <Result status="warning" title={t('previewPage.invalid')} />;
  else if (!view.data) body = <Spin style={{ display: 'block', margin: '64px auto' }} />;
  else
    body = (
      <ReportDocument
        view={view.data}
        renderImage={(image) => (
          <ReportImage reportCode={reportCode} source={image.source} code={image.code} alt={image.caption} />
        )}
      />
    );

  return (
    <main className="report-preview" style={{ maxWidth: 880, margin: '0 auto', padding: '16px 16px 48px' }}>
      {signedIn && view.data ? (
        <Space wrap style={{ marginBottom: 16 }}>
          <Link to={reportDesignPath(reportCode)}>
            <Button icon={<ArrowLeftOutlined aria-hidden />}>{t('previewPage.back')}</Button>
          </Link>
          <Button
            type="primary"
            icon={<FilePdfOutlined aria-hidden />}
            loading={downloading}
            data-testid="report-preview-pdf"
            onClick={() => {
              setDownloading(true);
              void downloadReportPdf(reportCode, version).finally(() => setDownloading(false));
            }}
          >
            {t('pdf')}
          </Button>
        </Space>
      ) : null}
      {body}
    </main>
  );
}
