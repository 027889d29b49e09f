import { useMemo, useState } from 'react';
import { Button, Empty, Space, Tag, Typography } from 'antd';
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import EyeOutlined from '@ant-design/icons/EyeOutlined';
import { useTranslation } from 'react-i18next';
import { FILE_KINDS } from '@portal/contracts';
import { notify } from '../../../lib/notify';
import { useBackClose } from '../../../lib/useBackClose';
import { downloadGrant, FileViewerModal, isViewable } from '../../cases';
import type { CaseFile } from '../api/types';
import type { ViewerTools } from '../../../components/ModelViewer';
import { downloadUrl } from '../../../lib/download';
import { PlainList } from './PlainList';
import { sizeText } from '../../../lib/sizes';

/** The case's scans and files as the order carries them, grouped by kind; models open in the 3D viewer. */
export function OrderFiles({ files, tools }: { files: readonly CaseFile[]; tools?: ViewerTools }) {
  const { t } = useTranslation('orders');
  const { t: tc } = useTranslation('cases');
  const [viewing, setViewing] = useState<CaseFile[] | null>(null);
  useBackClose(viewing !== null, () => setViewing(null));
  const groups = useMemo(
    () =>
      FILE_KINDS.map((kind) => ({ kind, files: files.filter((f) => f.kind === kind) })).filter(
        (g) => g.files.length > 0,
      ),
    [files],
  );

  const download = async (f: CaseFile) => {
    try {
      const g = await downloadGrant(f.fileCode);
      downloadUrl(g.url, f.name);
    } catch {
      notify.error(tc('file.invalidLink'));
    }
  };

  if (groups.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('files.none')} />;
  return (
    <div data-testid="order-files">
      {groups.map(({ kind, files: group }) => {
        const models = kind === 'model' ? group.filter(isViewable) : [];
        return (
          <div key={kind} data-testid={`order-file-group-${kind}`} style={{ marginBottom: 16 }}>
            <Space style={{ marginBottom: 8 }}>
              <Typography.Title level={5} style={{ margin: 0 }}>
                {tc(`kind.${kind}`)} ({group.length})
              </Typography.Title>
              {models.length > 1 ? (
                <Button
                  size="small"
                  icon={<EyeOutlined aria-hidden />}
                  data-testid="order-file-view-models"
                  onClick={() => setViewing(models)}
                >
                  {tc('file.viewAllModels')}
                </Button>
              ) : null}
            </Space>
            <PlainList
              items={group}
              itemKey={(f) => f.fileCode}
              itemProps={(f) => ({ 'data-testid': `order-file-${f.fileCode}` })}
              renderItem={(f) => (
                <>
                  <Space wrap>
                    <Typography.Text>{f.name}</Typography.Text>
                    <Tag>{f.format.toUpperCase()}</Tag>
                    {f.jaw ? <Tag color="blue">{tc(`jaw.${f.jaw}`)}</Tag> : null}
                    <Typography.Text type="secondary">{sizeText(f.size)}</Typography.Text>
                  </Space>
                  <Space wrap>
                    <Button
                      size="small"
                      icon={<EyeOutlined aria-hidden />}
                      disabled={!isViewable(f)}
                      data-testid={`order-file-open-${f.fileCode}`}
                      onClick={() => setViewing([f])}
                    >
                      {tc('file.view')}
                    </Button>
                    <Button
                      size="small"
                      icon={<DownloadOutlined aria-hidden />}
                      disabled={f.uploadTag === 'uploading' || f.uploadTag === 'uploadFail'}
                      data-testid={`order-file-download-${f.fileCode}`}
                      onClick={() => void download(f)}
                    >
                      {tc('file.download')}
                    </Button>
                  </Space>
                </>
              )}
            />
          </div>
        );
      })}
      <FileViewerModal
        files={viewing}
        onClose={() => setViewing(null)}
        allModelsTitle={tc('file.viewAllModels')}
        testId="order-file-viewer"
        tools={tools}
      />
    </div>
  );
}
