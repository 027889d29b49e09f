import { Skeleton } from 'antd';
import { useReportImage } from '../lib/useReportImage';

export function ReportImage({
  reportCode,
  source,
  code,
  alt,
  height = 180,
}: {
  reportCode: string;
  source: 'file' | 'snapshot';
  code: string;
  alt: string;
  height?: number;
}) {
  const { url, failed } = useReportImage(reportCode, source, code);
  if (failed) return <div style={{ height, background: '#f0f0f0', borderRadius: 6 }} aria-label={alt} role="img" />;
  if (!url) return <Skeleton.Image active style={{ width: '100%', height }} />;
  return (
    <img
      src={url}
      alt={alt}
      data-testid={`report-image-${code}`}
      style={{ width: '100%', height, objectFit: 'contain', background: '#f5f5f5', borderRadius: 6 }}
    />
  );
}
